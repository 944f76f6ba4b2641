package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// atomicFile is an output file written under a temporary name beside its final path and
// renamed into place only when complete, so a reader never sees a truncated file.
type atomicFile struct {
	*os.File
	path string
}

func createAtomic(path string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		// A missing or unwritable directory: the path given is wrong, exit 2.
		return nil, usageErrorf("cannot create %q: %v", path, pathErr(err))
	}
	// CreateTemp makes the file private (0600); an output file is an ordinary one.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("creating output: %w", err)
	}
	return &atomicFile{File: f, path: path}, nil
}

// Commit flushes the file to disk and renames it to its final path.
func (f *atomicFile) Commit() error {
	if err := f.Sync(); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	return nil
}

// Abort removes the temporary file.
func (f *atomicFile) Abort() {
	f.Close()
	os.Remove(f.Name())
}

// writeTo runs write on the file output, written atomically, or on stdout when output is "".
func writeTo(output string, stdout io.Writer, write func(io.Writer) error) error {
	if output == "" {
		return write(stdout)
	}
	f, err := createAtomic(output)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}
