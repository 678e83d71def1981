// Package netlimit keeps the server serving under file-descriptor
// pressure: it raises the soft open-file limit at start, and wraps the
// listener so running out of descriptors sheds connections instead of
// stopping the server (fasthttp returns from Serve on any Accept error but
// a timeout, which ends the process).
package netlimit

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// RaiseFileLimit raises the soft RLIMIT_NOFILE to the hard limit and
// returns the new soft limit. (Go already does this for its own process
// since 1.19; doing it here says so in the log and covers a runtime that
// does not.)
func RaiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, fmt.Errorf("read open-file limit: %w", err)
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return 0, fmt.Errorf("raise open-file limit: %w", err)
		}
	}
	return l.Cur, nil
}

// Listener is a net.Listener that survives descriptor exhaustion. On EMFILE
// or ENFILE it frees a reserved descriptor, accepts the waiting connection
// and closes it at once (the client sees the connection closed instead of
// hanging in the backlog), takes the reserve back, backs off a little and
// keeps accepting. Other temporary errors back off and retry too.
type Listener struct {
	net.Listener
	Log *slog.Logger

	mu      sync.Mutex
	reserve *os.File
	shed    int64
	lastLog time.Time
}

// Wrap returns ln as a Listener, with one descriptor held in reserve.
func Wrap(ln net.Listener, log *slog.Logger) *Listener {
	l := &Listener{Listener: ln, Log: log}
	l.reserve, _ = os.Open(os.DevNull)
	return l
}

// Accept returns the next connection, riding out descriptor exhaustion.
func (l *Listener) Accept() (net.Conn, error) {
	backoff := 5 * time.Millisecond
	for {
		c, err := l.Listener.Accept()
		if err == nil {
			return c, nil
		}
		if errors.Is(err, net.ErrClosed) {
			return nil, err
		}
		var ne net.Error
		exhausted := errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
		if !exhausted && !(errors.As(err, &ne) && (ne.Timeout() || isTemporary(err))) {
			return nil, err
		}
		if exhausted {
			l.shedOne(err)
		}
		time.Sleep(backoff)
		backoff = min(backoff*2, time.Second)
	}
}

// isTemporary reports the errors Accept may meet and recover from
// (ECONNABORTED, EINTR, ENOBUFS, ENOMEM...).
func isTemporary(err error) bool {
	for _, e := range []error{syscall.ECONNABORTED, syscall.EINTR, syscall.ENOBUFS, syscall.ENOMEM, syscall.EAGAIN} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// shedOne uses the reserve descriptor to accept and close one waiting
// connection, and logs the exhaustion at most once a second.
func (l *Listener) shedOne(cause error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.reserve != nil {
		l.reserve.Close()
		l.reserve = nil
		if c, err := l.Listener.Accept(); err == nil {
			c.Close()
			l.shed++
		}
		l.reserve, _ = os.Open(os.DevNull)
	}
	if l.Log != nil && time.Since(l.lastLog) > time.Second {
		l.lastLog = time.Now()
		l.Log.Warn("out of file descriptors: shedding connections", "err", cause.Error(), "shed", l.shed)
	}
}
