package export

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// SchemaDialect is the JSON Schema draft every published schema follows.
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// Schema derives the JSON Schema of a document from the Go type that
// encodes it, so the two cannot drift: every field the encoder writes is
// a property, required unless its tag says omitempty; nil pointers are
// null; lists are arrays (never null: a nil list would encode as null and
// fail validation, which is the point); maps are objects; no other
// properties are allowed. Struct types become $defs.
func Schema(id, title string, v any) map[string]any {
	g := &schemaGen{defs: map[string]any{}, named: map[reflect.Type]string{}, types: map[string]reflect.Type{}}
	root := g.of(reflect.TypeOf(v))
	s := map[string]any{"$schema": SchemaDialect, "$id": id, "title": title}
	for k, val := range root {
		s[k] = val
	}
	if len(g.defs) > 0 {
		s["$defs"] = g.defs
	}
	return s
}

type schemaGen struct {
	defs map[string]any
	// named is each struct type's $defs name; types is the type each
	// name was given to, so that two types of one name (site's and
	// export's, say) never share a definition.
	named map[reflect.Type]string
	types map[string]reflect.Type
}

var defName = regexp.MustCompile(`[^A-Za-z0-9_]+`)

func (g *schemaGen) of(t reflect.Type) map[string]any {
	switch t.Kind() {
	case reflect.Pointer:
		inner := g.of(t.Elem())
		if typ, ok := inner["type"].(string); ok && len(inner) == 1 {
			return map[string]any{"type": []string{typ, "null"}}
		}
		return map[string]any{"anyOf": []any{inner, map[string]any{"type": "null"}}}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.of(t.Elem())}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		name, done := g.named[t]
		if !done {
			name = g.defName(t)
			g.named[t], g.types[name] = name, t
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	panic(fmt.Sprintf("export: no JSON Schema for %s", t))
}

// defName is the $defs name of a struct type: its Go name, or, when a
// type of another package took that name first, the name qualified by
// its package.
func (g *schemaGen) defName(t reflect.Type) string {
	name := strings.Trim(defName.ReplaceAllString(t.Name(), "_"), "_")
	if _, taken := g.types[name]; taken {
		name = strings.Trim(defName.ReplaceAllString(t.PkgPath()+"."+t.Name(), "_"), "_")
	}
	return name
}

// object is a struct's schema: its fields, with embedded structs'
// fields in place, as encoding/json writes them.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			props[name] = g.of(f.Type)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
	}
	walk(t)
	sort.Strings(required)
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}
