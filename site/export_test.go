package site

import (
	"context"
	"io"

	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/export"
)

// RenderHugo lets the external benchmarks render a hand-made Hugo project.
var RenderHugo = renderHugo

// SetBatchSize makes a render's Hugo sites of n regular pages each, until
// the returned function puts pageBatch back.
func SetBatchSize(n int) (restore func()) {
	batchSize = n
	return func() { batchSize = pageBatch }
}

// RenderOneSite renders s as one Hugo site of every page, whole, as
// engram did before it rendered in batches: what the batches must write
// byte for byte.
func RenderOneSite(ctx context.Context, s *export.Site, publishDir string, api []string) error {
	ps, err := pages(ctx, s, newMarkdown())
	if err != nil {
		return err
	}
	cs, err := contents(ctx, ps, nil)
	if err != nil {
		return err
	}
	src := afero.NewMemMapFs()
	if err := writeSkeleton(ctx, src, workDir, s); err != nil {
		return err
	}
	for _, c := range cs {
		if err := writeContent(src, c.path, c.data); err != nil {
			return err
		}
	}
	if err := writeTwins(ctx, publishDir, ps, api); err != nil {
		return err
	}
	return renderHugoFs(ctx, src, workDir, publishDir, io.Discard, s.RelativeLinks, nil)
}
