// Package pagetest holds tests of what the built pages say, on the demo
// and on the real corpus (../shared/corpus/real): each builds a whole
// site with indexer.Build, so they live outside the site package, whose
// tests are already near their time budget. It has no code of its own.
package pagetest
