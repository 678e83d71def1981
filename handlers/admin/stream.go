package admin

import (
	"compress/gzip"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// streamStall is how long a streamed download may make no progress
// before its connection is given up: the server's write timeout bounds a
// whole response, which a large export may well outlast, so each piece
// sent moves the deadline on instead.
const streamStall = 30 * time.Second

// errDownloadGone is what the writer of a stream meets once the
// download has ended on the other side.
var errDownloadGone = errors.New("download closed")

// stream answers with the body that write produces, piece by piece, so
// a response of any size is never held in memory. write starts only
// when the server begins to send the response, after every middleware
// has run (nothing of the request is left for it but what it captured:
// never the fiber.Ctx, which is reused), and runs in a goroutine of its
// own, its output piped into the connection. When it fails midway (the
// database went away) the connection is closed before the body's end, so
// the browser reports a failed download rather than saving a file that
// looks whole; the failure is logged as what. A client that stops
// reading stops write at its next piece.
//
// A client that accepts gzip gets the body gzipped here, which the
// shop's compressor then leaves alone: that one would end a failed body
// as if it were whole.
func stream(c *fiber.Ctx, log *slog.Logger, what string, write func(w io.Writer) error) {
	gz := c.Request().Header.HasAcceptEncoding("gzip")
	if gz {
		c.Set(fiber.HeaderContentEncoding, "gzip")
	}
	c.Vary(fiber.HeaderAcceptEncoding)
	body := &streamBody{conn: c.Context().Conn(), write: func(w io.Writer) error {
		var err error
		if gz {
			zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // a valid level: no error
			if err = write(zw); err == nil {
				err = zw.Close()
			}
		} else {
			err = write(w)
		}
		if err != nil && !errors.Is(err, errDownloadGone) {
			log.Error("streamed download failed midway", "what", what, "err", err)
		}
		return err
	}}
	c.Context().SetBodyStream(body, -1)
}

// streamBody is a response body that runs write on its first Read.
type streamBody struct {
	conn  net.Conn
	write func(w io.Writer) error
	once  sync.Once
	pr    *io.PipeReader
}

func (b *streamBody) Read(p []byte) (int, error) {
	b.once.Do(func() {
		pr, pw := io.Pipe()
		b.pr = pr
		go func() { pw.CloseWithError(b.write(pw)) }()
	})
	if b.pr == nil {
		return 0, errDownloadGone // closed before it was read
	}
	if b.conn != nil {
		_ = b.conn.SetWriteDeadline(time.Now().Add(streamStall))
	}
	return b.pr.Read(p)
}

// Close ends the download for the writer: the server closes the body
// once it is sent, or when the client is gone. A body never read (an
// answer to HEAD) never started its writer.
func (b *streamBody) Close() error {
	b.once.Do(func() {}) // a later Read must not start the writer
	if b.pr != nil {
		b.pr.CloseWithError(errDownloadGone)
	}
	return nil
}
