package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to file as the write commands write: into a
// temporary file beside it, synced, then renamed over it, so that a reader
// sees the old file or the new one, never a part (engram hook install's
// hook).
func WriteFileAtomic(file string, data []byte, perm os.FileMode) error {
	tmp, err := TempBeside(file, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// TempBeside writes data to a new temporary file in target's directory,
// synced to disk, with mode perm, and returns its name. A directory in the
// way of the target's folder is an error, never removed.
func TempBeside(target string, data []byte, perm os.FileMode) (string, error) {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	if st, err := os.Lstat(target); err == nil && st.IsDir() {
		return "", fmt.Errorf("%s is a directory, where the note must go: move it away", target)
	}
	f, err := os.CreateTemp(dir, ".engram-write-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	return f.Name(), nil
}

// ReplaceFile writes data to a temporary file beside name and renames it
// over name, so that a reader never sees half a file (engram export,
// which writes outside the repository).
func ReplaceFile(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".engram-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
