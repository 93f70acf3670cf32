//go:build !engramprof

package main

func profStop() {}
