package images

import (
	"image"
	"image/color"
	"math"
)

// scaleAll scales src to each of sizes (Catmull-Rom, onto white, so
// transparent PNGs look the same in JPEG, which has no alpha, and WebP, on
// the shop's light photo tiles) in one pass over its rows.
//
// It is a separable two-pass scaler, like golang.org/x/image/draw's, with
// the same weights, but it streams: each source row is read once, straight
// from the decoder's own layout (YCbCr for JPEG, paletted or gray for many
// PNGs: no RGBA copy of the photo), scaled horizontally for every size, and
// kept only until the output rows that need it are done. x/image/draw keeps
// the whole horizontal pass instead (output width × source height × 32
// bytes: 150 MB for a 960 px variant of a 24-megapixel photo), which was
// most of a big photo's memory.
func scaleAll(src image.Image, sizes []image.Point) []*image.RGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	read := rowReader(src)
	row := make([]float32, 4*sw)
	scalers := make([]*rowScaler, len(sizes))
	out := make([]*image.RGBA, len(sizes))
	for i, sz := range sizes {
		out[i] = image.NewRGBA(image.Rect(0, 0, sz.X, sz.Y))
		scalers[i] = newRowScaler(out[i], sw, sh)
	}
	for y := range sh {
		read(b.Min.Y+y, row)
		for _, s := range scalers {
			s.push(y, row)
		}
	}
	return out
}

// weights are, for each output pixel along one axis, the source pixels
// [first[i], first[i]+n[i]) and their weights, w[off[i]:off[i]+n[i]].
type weights struct {
	first, n, off []int
	w             []float32
	span          int // the largest n
}

// catmullRom is the kernel x/image/draw's CatmullRom uses (support 2).
func catmullRom(t float64) float64 {
	if t < 1 {
		return (1.5*t-2.5)*t*t + 1
	}
	return ((-0.5*t+2.5)*t-4)*t + 2
}

// newWeights mirrors x/image/draw's newDistrib: when shrinking, the kernel
// is widened so that every source pixel counts; at the edges the missing
// taps are dropped and the rest renormalised.
func newWeights(dst, src int) weights {
	const support = 2
	scale := float64(src) / float64(dst)
	half, argScale := float64(support), 1.0
	if scale > 1 {
		half *= scale
		argScale = 1 / scale
	}
	ws := weights{first: make([]int, dst), n: make([]int, dst), off: make([]int, dst)}
	for x := range dst {
		center := (float64(x)+0.5)*scale - 0.5
		i := max(0, int(math.Floor(center-half)))
		j := min(src, int(math.Ceil(center+half)))
		j = max(i, j)
		total := 0.0
		start := len(ws.w)
		for c := i; c < j; c++ {
			w := 0.0
			if t := math.Abs((center - float64(c)) * argScale); t < support {
				w = catmullRom(t)
			}
			total += w
			ws.w = append(ws.w, float32(w))
		}
		for k := start; k < len(ws.w); k++ {
			ws.w[k] = float32(float64(ws.w[k]) / total)
		}
		ws.first[x], ws.n[x], ws.off[x] = i, j-i, start
		ws.span = max(ws.span, j-i)
	}
	return ws
}

// rowScaler makes one output image from source rows pushed in order.
type rowScaler struct {
	dst    *image.RGBA
	h, v   weights
	ring   [][]float32 // horizontally scaled source rows, by row % len(ring)
	acc    []float32
	nextY  int // the next output row to write
	dw, dh int
}

func newRowScaler(dst *image.RGBA, sw, sh int) *rowScaler {
	dw, dh := dst.Bounds().Dx(), dst.Bounds().Dy()
	s := &rowScaler{dst: dst, h: newWeights(dw, sw), v: newWeights(dh, sh), dw: dw, dh: dh, acc: make([]float32, 4*dw)}
	// A source row is overwritten only once no unfinished output row needs
	// it: each output row needs at most span consecutive rows.
	s.ring = make([][]float32, max(1, s.v.span))
	for i := range s.ring {
		s.ring[i] = make([]float32, 4*dw)
	}
	return s
}

// push takes source row y (premultiplied RGBA, 0–255 each) and writes the
// output rows that it completes.
func (s *rowScaler) push(y int, row []float32) {
	if s.nextY >= s.dh {
		return
	}
	dst := s.ring[y%len(s.ring)]
	for x := range s.dw {
		var r, g, b, a float32
		src := row[4*s.h.first[x]:]
		for k, w := range s.h.w[s.h.off[x] : s.h.off[x]+s.h.n[x]] {
			p := src[4*k : 4*k+4 : 4*k+4]
			r += w * p[0]
			g += w * p[1]
			b += w * p[2]
			a += w * p[3]
		}
		d := dst[4*x : 4*x+4 : 4*x+4]
		d[0], d[1], d[2], d[3] = r, g, b, a
	}
	for s.nextY < s.dh && s.v.first[s.nextY]+s.v.n[s.nextY]-1 <= y {
		s.writeRow(s.nextY)
		s.nextY++
	}
}

// writeRow combines the rows output row oy needs and lays it onto white.
func (s *rowScaler) writeRow(oy int) {
	clear(s.acc)
	first := s.v.first[oy]
	for k, w := range s.v.w[s.v.off[oy] : s.v.off[oy]+s.v.n[oy]] {
		if w == 0 {
			continue
		}
		src := s.ring[(first+k)%len(s.ring)]
		for i, p := range src {
			s.acc[i] += w * p
		}
	}
	pix := s.dst.Pix[oy*s.dst.Stride:]
	for x := range s.dw {
		p := s.acc[4*x : 4*x+4 : 4*x+4]
		// Catmull-Rom overshoots at edges: clamp to a valid premultiplied
		// colour, then add the white that shows through.
		a := min(max(p[3], 0), 255)
		for c := range 3 {
			pix[4*x+c] = uint8(min(max(p[c], 0), a) + (255 - a) + 0.5)
		}
		pix[4*x+3] = 255
	}
}

// rowReader returns a function that fills row with source row y as
// premultiplied RGBA (0–255 each), read from the decoded image's own
// layout where it is one the decoders make.
func rowReader(src image.Image) func(y int, row []float32) {
	b := src.Bounds()
	switch m := src.(type) {
	case *image.RGBA:
		return func(y int, row []float32) {
			pix := m.Pix[m.PixOffset(b.Min.X, y):]
			for i := range row {
				row[i] = float32(pix[i])
			}
		}
	case *image.NRGBA:
		return func(y int, row []float32) {
			pix := m.Pix[m.PixOffset(b.Min.X, y):]
			for i := 0; i < len(row); i += 4 {
				a := float32(pix[i+3])
				row[i], row[i+1], row[i+2], row[i+3] = float32(pix[i])*a/255, float32(pix[i+1])*a/255, float32(pix[i+2])*a/255, a
			}
		}
	case *image.Gray:
		return func(y int, row []float32) {
			pix := m.Pix[m.PixOffset(b.Min.X, y):]
			for x := range len(row) / 4 {
				v := float32(pix[x])
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = v, v, v, 255
			}
		}
	case *image.Paletted:
		table := make([][4]float32, 256)
		for i, c := range m.Palette {
			r, g, bl, a := c.RGBA()
			table[i] = [4]float32{float32(r >> 8), float32(g >> 8), float32(bl >> 8), float32(a >> 8)}
		}
		return func(y int, row []float32) {
			pix := m.Pix[m.PixOffset(b.Min.X, y):]
			for x := range len(row) / 4 {
				copy(row[4*x:4*x+4], table[pix[x]][:])
			}
		}
	case *image.YCbCr:
		hs, vs := subsampling(m.SubsampleRatio)
		return func(y int, row []float32) {
			yi := m.YOffset(b.Min.X, y)
			cRow := (y/vs - m.Rect.Min.Y/vs) * m.CStride
			for x := range len(row) / 4 {
				ci := cRow + (b.Min.X+x)/hs - m.Rect.Min.X/hs
				r, g, bl := color.YCbCrToRGB(m.Y[yi+x], m.Cb[ci], m.Cr[ci])
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = float32(r), float32(g), float32(bl), 255
			}
		}
	default:
		return func(y int, row []float32) {
			for x := range len(row) / 4 {
				r, g, bl, a := src.At(b.Min.X+x, y).RGBA()
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = float32(r)/257, float32(g)/257, float32(bl)/257, float32(a)/257
			}
		}
	}
}

// subsampling is how many luma pixels share one chroma sample, across and
// down.
func subsampling(r image.YCbCrSubsampleRatio) (h, v int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}
