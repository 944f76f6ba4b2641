package cluster

import (
	"fmt"
	"os"
	"strings"
)

// ReadTokenFile returns the token in the file at path: its one line, without spaces (a NATS
// token for a server of the operator's own, or the coordinator's secret: see [ReadAdmin]).
// It refuses a file that users other than its owner may read or write, and an empty one.
func ReadTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading the token: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("reading the token: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("token file %s can be read or written by other users (mode %04o); make it the owner's only: chmod 600 %s", path, perm, path)
	}
	var b [4096]byte
	n, _ := f.Read(b[:])
	token := strings.TrimSpace(string(b[:n]))
	if token == "" || strings.ContainsAny(token, " \t\r\n") {
		return "", fmt.Errorf("token file %s must hold one token on one line", path)
	}
	return token, nil
}
