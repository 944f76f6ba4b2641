// The directory of "knight count --spill DIR": the files of a count's layers and runs.

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// spillDir is a kcount.SpillDisk on a directory of the operating system's.
type spillDir string

// openSpillDir makes dir if it is not there and checks that files can be made in it.
func openSpillDir(dir string) (spillDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return spillDir(dir), nil
}

// spillFree returns the bytes free on the file system that holds dir, or would hold it
// (its nearest ancestor that is there, if dir is not made yet), or -1 if it cannot tell.
func spillFree(dir string) int64 {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Stat(d); err == nil {
			return spillDir(d).free()
		}
		up := filepath.Dir(d)
		if up == d {
			return -1
		}
		d = up
	}
}

func (d spillDir) path(name string) string { return filepath.Join(string(d), name) }

func (d spillDir) Create(name string) (kcount.SpillFile, error) {
	return os.Create(d.path(name))
}

func (d spillDir) Open(name string) (io.ReadCloser, error) { return os.Open(d.path(name)) }

// Rename renames the file and syncs the directory, so that the new name survives a crash.
func (d spillDir) Rename(from, to string) error {
	if err := os.Rename(d.path(from), d.path(to)); err != nil {
		return err
	}
	f, err := os.Open(string(d))
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func (d spillDir) Remove(name string) error { return os.Remove(d.path(name)) }

func (d spillDir) Names() ([]string, error) {
	ents, err := os.ReadDir(string(d))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

func (d spillDir) Size(name string) (int64, error) {
	st, err := os.Stat(d.path(name))
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}
