package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// An outputFile is where -o FILE writes. For a regular file (or a new one) it is a
// temporary file beside the final path, renamed into place only when complete, so a reader
// never sees a truncated file. Anything else is written through, never replaced: a device
// (/dev/null, a terminal), a FIFO (another program reads it), or, for a symbolic link, its
// target by the same rules (the link stays a link). Every write's error is kept, so that a
// full disk or /dev/full fails the command even when the code that writes does not look.
type outputFile struct {
	f       *os.File
	path    string // the path written in the end (a link's target)
	through bool   // written in place, no rename
	err     error  // the first write error
}

func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// createOutput opens path for writing as outputFile says.
func createOutput(path string) (*outputFile, error) {
	var target string
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return nil, usageErrorf("cannot write %q: it is a directory", path)
		}
		if !fi.Mode().IsRegular() {
			// Opened by its own name, so that the kernel follows every link, /proc's
			// (/dev/stdout → /proc/self/fd/1 → a pipe) included.
			// O_NONBLOCK: a FIFO nobody reads is refused at once instead of waiting for
			// ever (ENXIO); Go's poller then handles the descriptor's writes.
			f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			if errors.Is(err, syscall.ENXIO) {
				return nil, usageErrorf("cannot write %q: nothing reads from it (a FIFO with no reader)", path)
			}
			if err != nil {
				return nil, usageErrorf("cannot write %q: %v", path, pathErr(err))
			}
			return &outputFile{f: f, path: path, through: true}, nil
		}
		// A regular file, perhaps behind links: the new one is renamed onto the file
		// itself, and the links stay links.
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return nil, usageErrorf("cannot write %q: %v", path, pathErr(err))
		}
	} else {
		// Not there yet (or a link to nothing): created where the links lead.
		if target, err = resolveOutput(path); err != nil {
			return nil, usageErrorf("cannot write %q: %v", path, pathErr(err))
		}
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
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
	return &outputFile{f: f, path: target}, nil
}

// resolveOutput follows path's symbolic links (at most 40, as the kernel does) to the file
// they name, which need not exist yet.
func resolveOutput(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// Commit finishes the output: for a regular file it flushes it to disk and renames it to
// its final path. It returns the first write error, if any (the temporary file is then
// removed): the answer did not reach the file.
func (o *outputFile) Commit() error {
	if o.through {
		err := o.f.Close()
		if o.err != nil {
			err = o.err
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", o.path, err)
		}
		return nil
	}
	if o.err != nil {
		o.Abort()
		return fmt.Errorf("writing %s: %w", o.path, o.err)
	}
	if err := o.f.Sync(); err != nil {
		o.Abort()
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	if err := o.f.Close(); err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	if err := os.Rename(o.f.Name(), o.path); err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}

// Abort removes the temporary file, or just closes a file written through.
func (o *outputFile) Abort() {
	o.f.Close()
	if !o.through {
		os.Remove(o.f.Name())
	}
}

// writeTo runs write on the file output (see outputFile), or on stdout when output is "".
func writeTo(output string, stdout io.Writer, write func(io.Writer) error) error {
	if output == "" {
		return write(stdout)
	}
	f, err := createOutput(output)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		if f.err != nil {
			return fmt.Errorf("writing %s: %w", f.path, f.err)
		}
		return err
	}
	return f.Commit()
}
