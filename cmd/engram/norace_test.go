//go:build !race

package main

// raceDetector is true under go test -race (see race_test.go).
const raceDetector = false
