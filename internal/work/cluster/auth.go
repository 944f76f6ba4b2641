package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nats-io/nats-server/v2/server"
)

// AdminFile is the file, in a coordinator's state directory, that holds its own secret:
// the key of its seals (see [Sealer]) and of the nonces of its leases. It never leaves the
// machine; "queens status" on that machine reads it to check what it prints.
const AdminFile = "coordinator.secret"

// InboxPrefix returns the prefix of the inboxes (reply subjects) of a client of identity
// user: the only subjects such a worker may receive on.
func InboxPrefix(user string) string { return "_INBOX_" + user }

// ValidIdentity reports whether s can be an identity: 1 to 64 letters, digits, '-' or '_'
// (it is one token of the worker's subjects).
func ValidIdentity(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// WorkerPermissions returns the NATS permissions of worker identity user: publish only
// its own request, heartbeat and result subjects; subscribe only to its own inboxes. No
// JetStream API at all: it can neither read nor write a result, a job record or a task
// of anyone. An operator of an external cluster gives each worker user the same (see
// docs/distributed.md).
func WorkerPermissions(user string) *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			wantSubject(user), beatSubject(user), resultSubject(user, "*"),
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{InboxPrefix(user) + ".>"}},
	}
}

// LoadOrCreateAdmin returns the coordinator's secret kept in dir/coordinator.secret,
// creating the directory (mode 0700) and the file (mode 0600, a new [NewToken]) if they do
// not exist, so that a coordinator started again on the same state directory keeps its
// secret and checks what an earlier one sealed. It refuses a file that other users may
// read or write (as ssh does its keys) and one that holds no secret. The file appears whole
// or not at all: it is written under another name, synced, then linked into place, so that
// two coordinators started at once on one directory agree on one secret.
func LoadOrCreateAdmin(dir string) (string, error) {
	s, _, err := loadOrCreateSecret(dir, AdminFile)
	return s, err
}

// ReadAdmin returns the coordinator's secret kept in dir, or an error wrapping
// fs.ErrNotExist if there is none.
func ReadAdmin(dir string) (string, error) {
	return ReadTokenFile(filepath.Join(dir, AdminFile))
}

// loadOrCreateSecret is LoadOrCreateAdmin for the file name in dir; created reports
// whether the file is new.
func loadOrCreateSecret(dir, name string) (string, bool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("state directory: %w", err)
	}
	path := filepath.Join(dir, name)
	token, err := ReadTokenFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return token, false, err
	}
	tmp, err := os.CreateTemp(dir, name+".new*") // mode 0600
	if err != nil {
		return "", false, fmt.Errorf("creating %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	token = NewToken()
	_, err = tmp.WriteString(token + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", false, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			token, err = ReadTokenFile(path)
			return token, false, err
		}
		return "", false, fmt.Errorf("creating %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return token, true, nil
}

// NewToken returns a random token of 32 hex digits.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
