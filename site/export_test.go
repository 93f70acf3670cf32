package site

// RenderHugo lets the external benchmarks render a hand-made Hugo project.
var RenderHugo = renderHugo
