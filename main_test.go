package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The server starts on the configured port with the default embedded
// setup, answers, and on a shutdown signal (the context ending) stops
// cleanly instead of dying mid-request.
func TestRun_StartsAndShutsDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	env := map[string]string{"PORT": fmt.Sprint(port), "DATA_DIR": t.TempDir(), "LOG_LEVEL": "error"}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }) }()

	url := fmt.Sprintf("http://127.0.0.1:%d/healthz", port)
	// Polled until it answers or run returns; the minute only bounds a
	// broken start, so a busy machine's slow start still passes.
	var res *http.Response
	for deadline := time.Now().Add(time.Minute); ; {
		if res, err = http.Get(url); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not answer: %v", err)
		}
		select {
		case err := <-done:
			t.Fatalf("run returned before answering: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %d", res.StatusCode)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run returned %v after shutdown", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not shut down")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestRun_BadConfigIsOneLine(t *testing.T) {
	err := run(context.Background(), nil, func(k string) string {
		return map[string]string{"PORT": "eighty", "DATA_DIR": t.TempDir()}[k]
	})
	if err == nil || err.Error() != `PORT must be a number from 1 to 65535, got "eighty"` {
		t.Errorf("got %v", err)
	}
}

// Into a file (not a terminal) the import's progress is a line every tenth
// of the way and one at the end, not one per image.
func TestProgressLine_File(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "progress"))
	if err != nil {
		t.Fatal(err)
	}
	progress := progressLine(f)
	for done := 1; done <= 95; done++ {
		progress(done, 95, done/40)
	}
	f.Close()
	b, _ := os.ReadFile(f.Name())
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 10 || lines[9] != "images: 95/95 fetched, 2 failed" || lines[0] != "images: 10/95 fetched, 0 failed" {
		t.Errorf("got %d lines:\n%s", len(lines), b)
	}
}
