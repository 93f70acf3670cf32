// Package secretstest makes realistic credentials for tests, at run time
// and from pieces, so that engram's repository itself never holds a
// secret that a scanner would find. Each is as gitleaks' default rules
// expect it (length, alphabet, entropy) but belongs to nothing.
package secretstest

import (
	"bytes"
	"math/rand/v2"
	"strings"
)

// Kind is one kind of credential, as a user would paste it.
type Kind struct {
	Name string
	// Rule is the gitleaks rule that finds it; "" when gitleaks' default
	// rules miss it.
	Rule string
	// Line is a line of text that holds the secret, with the context a
	// rule may need (aws_secret_access_key = ...). A private key is a
	// whole PEM block over several lines.
	Line string
	// Secret is the part that must never be published.
	Secret string
}

const (
	alnum  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	digits = "0123456789"
	b64    = alnum + "+/"
)

// gen draws characters from a fixed seed: the same secrets every run.
type gen struct{ r *rand.Rand }

func (g gen) pick(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

// Kinds are the ten kinds of credential of SPEC §6's secrets bullet, made
// from seed: different seeds give different secrets of the same kinds.
func Kinds(seed uint64) []Kind {
	g := gen{rand.New(rand.NewPCG(seed, 13))}
	ghp := "gh" + "p_" + g.pick(alnum, 36)
	fine := "github" + "_pat_" + g.pick(alnum, 22) + "_" + g.pick(alnum, 59)
	akid := "AK" + "IA" + g.pick(upper, 16)
	awsSecret := g.pick(alnum, 20) + "/" + g.pick(alnum, 19)
	slack := "xo" + "xb-" + g.pick(digits, 13) + "-" + g.pick(digits, 13) + "-" + g.pick(alnum, 24)
	openai := "s" + "k-" + g.pick(alnum, 20) + "T3Blbk" + "FJ" + g.pick(alnum, 20)
	anthropic := "sk-ant" + "-api03-" + g.pick(alnum, 93) + "AA"
	jwt := "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "ey" + "J" + g.pick(alnum, 40) + "." + g.pick(alnum, 43)
	password := g.pick(alnum, 18)
	var pem []string
	for range 6 {
		pem = append(pem, g.pick(b64, 64))
	}
	key := strings.Join(pem, "\n")
	begin, end := "-----BEGIN RSA PRIVATE"+" KEY-----", "-----END RSA PRIVATE"+" KEY-----"
	return []Kind{
		{"github-classic", "github-pat", "token " + ghp, ghp},
		{"github-fine-grained", "github-fine-grained-pat", "token " + fine, fine},
		{"aws-access-key-id", "aws-access-token", "aws_access_key_id = " + akid, akid},
		{"aws-secret-access-key", "generic-api-key", "aws_secret_access_key = " + awsSecret, awsSecret},
		{"slack", "slack-bot-token", "slack " + slack, slack},
		{"openai", "openai-api-key", "OPENAI " + openai, openai},
		{"anthropic", "anthropic-api-key", "ANTHROPIC " + anthropic, anthropic},
		{"private-key", "private-key", begin + "\n" + key + "\n" + end, key},
		{"jwt", "jwt", "bearer " + jwt, jwt},
		// gitleaks' default rules have none for a password in a URL
		// (gitleaks issues #1094, #2089, #2279): the rule is engram's own.
		{"url-credentials", "url-credentials", "postgres://admin:" + password + "@db.example.com:5432/app", password},
	}
}

// Holds reports whether text holds secret in any form a build gives it:
// as it is, lower-cased, or with other characters between its letters
// and digits (a slug: ghp-abc… for ghp_Abc…).
func Holds(text []byte, secret string) bool {
	return bytes.Contains(lettersDigits(text), lettersDigits([]byte(secret)))
}

// lettersDigits is text's letters and digits, lower case.
func lettersDigits(text []byte) []byte {
	out := make([]byte, 0, len(text))
	for _, c := range bytes.ToLower(text) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			out = append(out, c)
		}
	}
	return out
}
