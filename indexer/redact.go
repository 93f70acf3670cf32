package indexer

import (
	"errors"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/secrets"
)

// A message about a note may quote what parsing made of it, and parsing
// decodes what the scan of the files read as written (a YAML escape in
// a title, "\x67" for g). So the diagnostics and the errors of a load are
// scanned as the output is, and each secret in them is redacted: engram
// never prints a secret (issue 29).

// redactDiagnostics replaces each secret in the diagnostics' messages
// with [REDACTED:rule], in place.
func redactDiagnostics(diags []note.Diagnostic, scan *secrets.Scanner) {
	for i := range diags {
		diags[i].Message = scan.RedactText(diags[i].Message)
	}
}

// redactError is err with each secret in its message redacted; it is
// still err to errors.Is (ErrRefused), and does not unwrap to the
// message it hides.
func redactError(err error, scan *secrets.Scanner) error {
	if msg := scan.RedactText(err.Error()); msg != err.Error() {
		return redactedError{msg, err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string        { return e.msg }
func (e redactedError) Is(target error) bool { return errors.Is(e.err, target) }
