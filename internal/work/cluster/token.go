package cluster

import (
	"fmt"
	"os"
	"strings"
)

// TokenFile is the name of the file, in a state directory, that holds a shared token of the
// token scheme (see auth.go): what a worker gives, with a secret of its own, to a server
// started without an Authority (tests, bench/coordbench). The command line's coordinator no
// longer makes one: its embedded server admits only issued identities.
const TokenFile = "token"

// LoadOrCreateToken returns the token kept in dir/token, creating the directory (mode 0700)
// and the file (mode 0600, a new [NewToken]) if they do not exist. A coordinator started
// again on the same state directory so keeps its token, and the workers still running
// reconnect with theirs. created reports whether the file is new.
//
// It refuses a token file that other users may read or write (mode 0600 is wanted, as ssh
// wants for its keys) and one that holds no token. The file appears whole or not at all: it
// is written under another name, synced, then linked into place, so that two coordinators
// started at once on one directory agree on one token.
func LoadOrCreateToken(dir string) (token string, created bool, err error) {
	return loadOrCreateSecret(dir, TokenFile)
}

// ReadTokenFile returns the token in the file at path: its one line, without spaces. It
// refuses a file that users other than its owner may read or write, and an empty one.
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
