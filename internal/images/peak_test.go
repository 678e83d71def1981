package images

import (
	"bufio"
	"bytes"
	"fmt"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/images/imagestest"
)

// TestProcessPeak measures how much memory processing one 24-megapixel
// photo (4898×4898) takes: the resident set's high-water mark (VmHWM in
// /proc/self/status) minus the resident size just before, each photo in a
// fresh process so nothing earlier counts. It is slow and Linux-only, so
// it runs only when asked:
//
//	IMAGES_PEAK=1 go test -count=1 -run TestProcessPeak -v ./internal/images/
func TestProcessPeak(t *testing.T) {
	if os.Getenv("IMAGES_PEAK") == "" {
		t.Skip("set IMAGES_PEAK=1 to measure the memory peak of 24-megapixel photos")
	}
	if file := os.Getenv("IMAGES_PEAK_FILE"); file != "" {
		measurePeak(t, file)
		return
	}
	const side = 4898
	dir := t.TempDir()
	files := map[string][]byte{}
	files["png"] = imagestest.GradientPNG(t, side, side)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, imagestest.Gradient(side, side), &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	files["jpeg"] = b.Bytes()
	for _, kind := range []string{"png", "jpeg"} {
		path := filepath.Join(dir, "photo."+kind)
		if err := os.WriteFile(path, files[kind], 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestProcessPeak$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "IMAGES_PEAK_FILE="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", kind, err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Contains(line, "peak:") {
				t.Logf("%d×%d %s of %d KB: %s", side, side, kind, len(files[kind])>>10, strings.TrimSpace(line[strings.Index(line, "peak:"):]))
			}
		}
	}
}

// measurePeak runs in the child process: it warms the encoders up on a
// small photo (the WebP encoder is compiled on first use, once per
// process), records the idle resident size, resets the high-water mark and
// processes file.
func measurePeak(t *testing.T, file string) {
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := process(imagestest.JPEG(t, 400, 300), DefaultMaxPixels); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	debug.FreeOSMemory()
	idle := procStatus(t, "VmRSS")
	// Writing 5 to clear_refs resets VmHWM to the current resident size.
	reset := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	start := time.Now()
	if _, err := process(body, DefaultMaxPixels); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	hwm := procStatus(t, "VmHWM")
	fmt.Printf("peak: idle %d MB, VmHWM %d MB, %d MB above idle (high-water mark reset: %v), %s\n",
		idle>>10, hwm>>10, (hwm-idle)>>10, reset, took.Round(10*time.Millisecond))
}

// procStatus reads one kB field of /proc/self/status.
func procStatus(t *testing.T, field string) int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
