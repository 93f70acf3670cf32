// Package tokens counts text in the tokens of a real BPE tokenizer, for
// budgets such as bootstrap's (SPEC §4.1), and does so offline.
//
// The encoding is OpenAI's o200k_base, the one of GPT-4o, GPT-4.1 and the
// o-series. It was chosen over cl100k_base (GPT-4, GPT-3.5) because it is the
// newer, current vocabulary and the offline loader embeds both. Counts are
// exactly those of OpenAI's tiktoken encode_ordinary: text that looks like a
// special token, such as "<|endoftext|>", is counted as the plain text it
// is. For other vendors' models the count is an estimate, but one made by a
// real BPE, not by dividing characters by four.
//
// The BPE ranks come from github.com/pkoukk/tiktoken-go-loader, which
// embeds them in the binary; github.com/pkoukk/tiktoken-go does the
// encoding. tiktoken-go's own loader downloads the ranks and caches them
// under $TMPDIR or $TIKTOKEN_CACHE_DIR; it is never called, because the
// encoder is built here from the embedded ranks rather than through
// tiktoken.GetEncoding, and tiktoken's package-level loader is left alone.
// So Count touches neither the network nor the file system.
//
// The encoder is built on first use, in about 150 ms, keeping about 22 MB of
// heap. After that ordinary prose costs about 0.25 ms per KB, linear in its
// length; but one run that the pre-tokenizer cannot split (an unbroken run of
// letters, of punctuation or of whitespace) costs the square of its length:
// about 9 ms for a 4 KB run, 135 ms for 16 KB, seconds beyond 64 KB. OpenAI's
// own implementation is quadratic too. Callers counting untrusted text should
// cap its length first.
package tokens

import (
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding names the encoding Count uses.
const Encoding = "o200k_base"

// pattern is o200k_base's pre-tokenizer, as OpenAI defines it in tiktoken's
// tiktoken_ext/openai_public.py. It is part of the encoding's definition, so
// it does not change. tiktoken-go has the same string but hands it out only
// through GetEncoding, that is through its downloading loader; hence this
// copy, which testdata/o200k.jsonl pins against OpenAI's own output.
const pattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
	`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
	`|\p{N}{1,3}` +
	`| ?[^\s\p{L}\p{N}]+[\r\n/]*` +
	`|\s*[\r\n]+` +
	`|\s+(?!\S)` +
	`|\s+`

// encoder is built once, on first use. Its inputs are compiled into the
// binary, so it cannot fail at run time: TestEmbeddedRanks proves that it
// builds from them, and a panic here would mean a broken build.
var encoder = sync.OnceValue(func() *tiktoken.Tiktoken {
	enc, err := newEncoder()
	if err != nil {
		panic("tokens: the embedded " + Encoding + " encoder does not build: " + err.Error())
	}
	return enc
})

// Count returns the number of tokens in s. It is safe for concurrent use.
// Invalid UTF-8 is counted as if each bad byte were U+FFFD.
func Count(s string) int {
	if s == "" {
		return 0
	}
	return len(encoder().EncodeOrdinary(s))
}

// newEncoder builds the o200k_base encoder from the embedded ranks.
func newEncoder() (*tiktoken.Tiktoken, error) {
	ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe(Encoding + ".tiktoken")
	if err != nil {
		return nil, err
	}
	// o200k_base's special tokens. Count never emits them (it encodes
	// ordinary text), but the encoder wants a well-formed set.
	specialTokens := map[string]int{"<|endoftext|>": 199999, "<|endofprompt|>": 200018}
	bpe, err := tiktoken.NewCoreBPE(ranks, specialTokens, pattern)
	if err != nil {
		return nil, err
	}
	set := make(map[string]any, len(specialTokens))
	for k := range specialTokens {
		set[k] = true
	}
	return tiktoken.NewTiktoken(bpe, &tiktoken.Encoding{
		Name:           Encoding,
		PatStr:         pattern,
		MergeableRanks: ranks,
		SpecialTokens:  specialTokens,
	}, set), nil
}
