// Package layouttest_test is issue 33's browser matrix: every kind of
// page of the demo, of real ai-agents memory and of a repository of bad
// input, at 320, 390 and 1280 px, in the light and the dark colour
// scheme, must stay within the screen, break no axe-core rule, cut no
// text in the site header, and be html-validate clean.
//
// It is a package of its own, with only tests, so that site's tests and
// these each stay under five minutes on two cores. The checks themselves
// are site/browsertest's, shared with site's TestBrowserQuality.
package layouttest_test
