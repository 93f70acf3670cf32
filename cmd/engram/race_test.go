//go:build race

package main

// raceDetector is true under go test -race, which slows a build five to
// ten times: the tests' bound of two seconds from a save to the page
// is not checked then.
const raceDetector = true
