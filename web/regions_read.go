package web

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"net/http"

	"github.com/chesspuzzles/chesspuzzles/internal/picture"
	"github.com/chesspuzzles/chesspuzzles/queens/regions/scan"
)

// The endpoint that reads a screenshot of a region-queens puzzle (package scan):
//
//	POST /api/regions/read      body: a PNG, JPEG or GIF picture   → {"n":8,"regions":[[0,0,1,…],…]}
//
// The body is the picture's bytes as they are (the page sends the file or the pasted image
// as it is), at most maxPictureBytes, and the picture at most maxPicturePixels; reading it
// takes a heavy slot and the request's deadline. A picture that holds no puzzle gets 400
// with scan's one line ("no grid found").

// Bounds of a picture to read: more than a phone's screenshot (about 3 megapixels) or a
// desktop's at 4K (8.3), and small enough that a request holds at most about 150 MB while
// it decodes: its pixels at most maxPictureDecoded bytes, which its header tells (package
// picture), so that a 16-bit picture has at most 6 megapixels.
const (
	maxPictureBytes   = 16 << 20
	maxPicturePixels  = 12 << 20
	maxPictureDecoded = 4 * maxPicturePixels
)

func (s *Server) regionsReadRoutes() {
	s.handleMethod("POST", "/api/regions/read", alwaysHeavy, s.regionsRead)
}

func (s *Server) regionsRead(w http.ResponseWriter, r *http.Request) error {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPictureBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &httpError{code: http.StatusRequestEntityTooLarge, msg: "the picture is larger than 16 MiB"}
		}
		if r.Context().Err() != nil {
			return r.Context().Err()
		}
		return badRequest("reading the picture: %v", err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return badRequest("not a PNG, JPEG or GIF picture: send the picture's bytes as the body")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPicturePixels/cfg.Height {
		return &httpError{code: http.StatusRequestEntityTooLarge, msg: "the picture has more than 12 megapixels"}
	}
	if size, err := picture.Measure(data); err == nil && size.Bytes > maxPictureDecoded {
		return &httpError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("the picture is %v, more than %d MiB", size, maxPictureDecoded>>20)}
	}
	p, err := scan.Read(r.Context(), bytes.NewReader(data))
	if errors.Is(err, scan.ErrUnreadable) {
		return badRequest("%v", err)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct {
		N       int     `json:"n"`
		Regions [][]int `json:"regions"`
	}{p.N(), p.Rows()})
	return nil
}
