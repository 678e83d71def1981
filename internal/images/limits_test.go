package images_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/internal/shop"
)

// A photo over the pixel limit is refused from its header, before it takes
// a processing slot or a byte is decoded, with a message staff can act on.
func TestUpload_RefusesTooManyPixelsBeforeDecoding(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := &images.Service{Store: openDB(t), Log: quiet, MaxPixels: 1_000_000}
	images.SetHook(svc, func(context.Context) { t.Error("a photo over the limit was decoded") })
	for _, tc := range []struct {
		name, want string
		body       []byte
	}{
		// Headers with no pixel data: decoding would fail (or allocate 40 GB).
		{"PNG header claiming 100000×100000", "100000×100000 pixels", imagestest.PNGHeader(100000, 100000)},
		{"PNG header claiming 5000×5000", "5000×5000 pixels", imagestest.PNGHeader(5000, 5000)},
		{"real JPEG of 1200×900", "1200×900 pixels, more than the 1 megapixels", imagestest.JPEG(t, 1200, 900)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Upload(ctx, tc.body)
			if shop.ErrorCode(err) != shop.EINVALID || !strings.Contains(shop.ErrorMessage(err), tc.want) {
				t.Errorf("got %v (%s), want an EINVALID saying %q", err, shop.ErrorCode(err), tc.want)
			}
		})
	}
	images.SetHook(svc, nil)
	if _, err := svc.Upload(ctx, imagestest.JPEG(t, 1000, 1000)); err != nil {
		t.Errorf("a photo of exactly the limit: %v", err)
	}
}

// A 24-megapixel photo is within the default limit.
func TestUpload_Accepts24Megapixels(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("decodes and scales a 24-megapixel photo")
	}
	ctx := context.Background()
	db := openDB(t)
	svc := &images.Service{Store: db, Log: quiet}
	name, err := svc.Upload(ctx, imagestest.GradientPNG(t, 4898, 4898))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := db.ImageRecords(ctx, []string{name})
	if err != nil || recs[name].Width != 4898 || recs[name].Height != 4898 {
		t.Errorf("record %+v, %v", recs[name], err)
	}
}

// At most Processors photos are decoded and encoded at once; one more
// waits for a slot, and gives up when its context ends.
func TestService_ProcessorsBound(t *testing.T) {
	t.Parallel()
	const n = 2
	svc := &images.Service{Store: openDB(t), Log: quiet, Processors: n}
	var running, most atomic.Int32
	entered := make(chan struct{}, 10)
	release := make(chan struct{})
	images.SetHook(svc, func(ctx context.Context) {
		r := running.Add(1)
		for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
		}
		entered <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		running.Add(-1)
	})
	photo := imagestest.PNG(t, 200, 100)
	errs := make(chan error, 10)
	upload := func(ctx context.Context) {
		go func() {
			_, err := svc.Upload(ctx, photo)
			errs <- err
		}()
	}
	for range n {
		upload(context.Background())
	}
	for range n {
		<-entered
	}
	// Every slot is held: one more waits, and a cancelled wait ends with
	// the context's error, without processing.
	ctx, cancel := context.WithCancel(context.Background())
	upload(ctx)
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("an upload that could not get a slot: got %v, want context.Canceled", err)
	}
	// One that waits gets a slot once one is freed.
	upload(context.Background())
	close(release)
	for range n + 1 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if got := most.Load(); got != n {
		t.Errorf("%d photos processed at once, want %d", got, n)
	}
}
