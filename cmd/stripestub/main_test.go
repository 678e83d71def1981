package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:0", "nonsense"} {
		if err := run(context.Background(), io.Discard, addr, "", "whsec_x"); err == nil {
			t.Errorf("run(%q) started", addr)
		}
	}
}

// TestServes reads the first line as a browser test does and reaches the
// stand-in at that address.
func TestServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, pw, "127.0.0.1:0", "", "whsec_x") }()

	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base, found := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !found || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("first line %q", line)
	}
	resp, err := http.Get(base + "/pay/cs_test_nosuch")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session page: %s", resp.Status)
	}

	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
