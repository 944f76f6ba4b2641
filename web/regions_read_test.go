package web

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/render"
)

// readingOrder relabels rows so that regions are numbered as they are first met row by row,
// the order /api/regions/read numbers them in.
func readingOrder(rows [][]int) [][]int {
	names := map[int]int{}
	out := make([][]int, len(rows))
	for r, row := range rows {
		for _, k := range row {
			if _, ok := names[k]; !ok {
				names[k] = len(names)
			}
			out[r] = append(out[r], names[k])
		}
	}
	return out
}

func postPicture(t *testing.T, h http.Handler, body []byte) (int, map[string]any, http.Header) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/api/regions/read", bytes.NewReader(body))
	req.Header.Set("Content-Type", "image/png")
	h.ServeHTTP(rec, req)
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("POST /api/regions/read: %d, not JSON: %q", rec.Code, rec.Body)
	}
	return rec.Code, m, rec.Header()
}

// TestRegionsRead posts a picture package render drew of a puzzle the API made, and gets the
// puzzle back; then pictures that are none, too large, and another method.
func TestRegionsRead(t *testing.T) {
	h := New(Options{}).Handler()
	p := regionsPuzzleOf(t, h, "n=7&seed=4&level=easy")
	var buf bytes.Buffer
	if err := render.PNG(context.Background(), &buf, render.Regions{Region: p.Regions, Queens: p.Solution}, render.Options{Square: 36}); err != nil {
		t.Fatal(err)
	}
	code, m, _ := postPicture(t, h, buf.Bytes())
	var got struct {
		N       int     `json:"n"`
		Regions [][]int `json:"regions"`
	}
	b, _ := json.Marshal(m)
	if err := json.Unmarshal(b, &got); code != http.StatusOK || err != nil {
		t.Fatalf("POST /api/regions/read: %d %v", code, m)
	}
	if want := readingOrder(p.Regions); got.N != 7 || !reflect.DeepEqual(got.Regions, want) {
		t.Errorf("read n = %d, regions %v; want 7, %v", got.N, got.Regions, want)
	}

	blank := image.NewGray(image.Rect(0, 0, 300, 200))
	for i := range blank.Pix {
		blank.Pix[i] = 0xee
	}
	var blankPNG bytes.Buffer
	if err := png.Encode(&blankPNG, blank); err != nil {
		t.Fatal(err)
	}
	// A PNG's header saying 5000×5000 pixels: refused before it is decoded.
	huge := []byte("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), 5000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 5000)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	huge = binary.BigEndian.AppendUint32(huge, 13)
	huge = append(huge, ihdr...)
	huge = binary.BigEndian.AppendUint32(huge, crc32.ChecksumIEEE(ihdr))
	// 3000×3000 pixels of 16 bits a channel with alpha: within 12 megapixels, but 69 MiB
	// decoded; refused by its header as well.
	deep := bytes.Clone(huge)
	ihdr = binary.BigEndian.AppendUint32([]byte("IHDR"), 3000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 3000)
	ihdr = append(ihdr, 16, 6, 0, 0, 0)
	copy(deep[12:], ihdr)
	binary.BigEndian.PutUint32(deep[12+len(ihdr):], crc32.ChecksumIEEE(ihdr))
	for _, c := range []struct {
		name string
		body []byte
		code int
		want string
	}{
		{"text", []byte("AAB/ABB/CCC"), 400, "not a PNG, JPEG or GIF picture"},
		{"blank", blankPNG.Bytes(), 400, "no grid found"},
		{"5000×5000", huge, 413, "more than 12 megapixels"},
		{"3000×3000 of 16 bits", deep, 413, "3000×3000 pixels of 8 bytes, 69 MiB decoded, more than 48 MiB"},
		{"16 MiB", make([]byte, maxPictureBytes+1), 413, "larger than 16 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, m, _ := postPicture(t, h, c.body)
			if msg, _ := m["error"].(string); code != c.code || !strings.Contains(msg, c.want) {
				t.Errorf("POST %s: %d %v, want %d saying %q", c.name, code, m, c.code, c.want)
			}
		})
	}
	code, m, hdr := regionsGetHeader(t, h, "/api/regions/read")
	if code != http.StatusMethodNotAllowed || hdr.Get("Allow") != "POST" {
		t.Errorf("GET /api/regions/read: %d %v, Allow %q; want 405, Allow POST", code, m, hdr.Get("Allow"))
	}
}

func regionsGetHeader(t *testing.T, h http.Handler, u string) (int, map[string]any, http.Header) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("GET %s: %d, not JSON: %q", u, rec.Code, rec.Body)
	}
	return rec.Code, m, rec.Header()
}
