package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
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
	var res *http.Response
	for i := 0; i < 100; i++ {
		if res, err = http.Get(url); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("server did not answer: %v", err)
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
