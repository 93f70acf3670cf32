package main

import (
	"embed"
	"regexp"
	"runtime/debug"
)

// scaffoldFS holds the pre-push hook of engram hook install, with
// @NAME@ where a value goes.
//
//go:embed scaffold/*.tmpl
var scaffoldFS embed.FS

func scaffoldFile(name string) string {
	data, err := scaffoldFS.ReadFile("scaffold/" + name)
	if err != nil {
		panic("engram: scaffold/" + name + " is not embedded")
	}
	return string(data)
}

// versionRE matches a module version go install can fetch: a release
// (v1.2.3, v1.2.3-rc.1) or a pseudo-version, never one with build
// metadata ("+dirty": a build with uncommitted edits).
var versionRE = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// installVersion is the engram version to install (go install
// …@version) in the files engram init writes and in the pre-push hook's
// advice: the version this binary was built as (debug.BuildInfo's
// Main.Version), or "latest", with exact false, for a development build
// ("(devel)", "", "+dirty"), which no one can install.
func installVersion(built string) (v string, exact bool) {
	if versionRE.MatchString(built) {
		return built, true
	}
	return "latest", false
}

// mainVersion is the module version this binary was built as.
func mainVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return info.Main.Version
}
