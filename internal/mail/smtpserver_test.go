package mail_test

import (
	"bufio"
	"net"
	"strings"
	"sync"
	"testing"
)

// smtpServer is a tiny SMTP server on loopback: enough of the protocol for
// go-mail to hand it a message, and a switch that makes it answer every
// connection with 421, as a server that is down for maintenance does.
type smtpServer struct {
	ln   net.Listener
	mu   sync.Mutex
	down bool
	got  []string // the DATA of each accepted message
}

func startSMTP(t *testing.T) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpServer{ln: ln}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *smtpServer) URL() string {
	return "smtp://" + s.ln.Addr().String() + "?from=shop@example.com"
}

func (s *smtpServer) setDown(down bool) { s.mu.Lock(); s.down = down; s.mu.Unlock() }

func (s *smtpServer) messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

func (s *smtpServer) serve(c net.Conn) {
	defer c.Close()
	w := bufio.NewWriter(c)
	say := func(line string) { _, _ = w.WriteString(line + "\r\n"); _ = w.Flush() }
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if down {
		say("421 mail.example closing: down for maintenance")
		return
	}
	say("220 mail.example ESMTP")
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb := strings.ToUpper(strings.Fields(line + " x")[0])
		switch verb {
		case "EHLO", "HELO":
			say("250 mail.example")
		case "MAIL", "RCPT", "RSET", "NOOP":
			say("250 OK")
		case "DATA":
			say("354 go on")
			var msg strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				msg.WriteString(l)
			}
			s.mu.Lock()
			s.got = append(s.got, msg.String())
			s.mu.Unlock()
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not here")
		}
	}
}
