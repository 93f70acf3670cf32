// Package layouttest_test is issue 33's browser matrix
// (browsertest.Layout) on the demo and on a repository of bad input; its
// subpackage real runs it on real ai-agents memory. Every kind of page,
// at 320, 390 and 1280 px, in the light and the dark colour scheme, must
// stay within the screen, break no axe-core rule, cut no text in the
// site header, show the outcomes chart legibly, and be html-validate
// clean.
//
// These are packages of their own, with only tests, so that site's tests
// and each of these stay under five minutes on two cores.
package layouttest_test
