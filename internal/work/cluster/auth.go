package cluster

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
)

// The token scheme. A server started without an [Authority] (ServerOptions.Token and
// Admin: the tests of what such a server refuses, and bench/coordbench) admits two kinds of
// client:
//
//   - the coordinator, user [AdminUser] with the secret kept in its state directory
//     ([AdminFile]): it may do anything, and is the only client that may touch JetStream;
//   - a worker, user "w" + 16 hex digits with the password "<token>:<secret>", where token
//     is the cluster's shared token and the 16 digits are the start of the SHA-256 of
//     secret, a random string the worker makes when it starts (see [NewIdentity]), with a
//     worker's permissions only ([WorkerPermissions]).
//
// Whoever holds the token can make as many identities as they like, which is why the
// command line's coordinator never starts such a server: its embedded server trusts only
// the identities its Authority issued (identity.go). The coordinator's secret still seals
// what it stores ([Sealer]) and the nonces of its leases.

// AdminUser is the NATS user name of the coordinator on an embedded server.
const AdminUser = "coordinator"

// AdminFile is the file, in a coordinator's state directory, that holds its own secret:
// the password of [AdminUser] and the key of its seals (see [Seal]). It never leaves the
// machine; "queens status" on that machine reads it to check what it prints.
const AdminFile = "coordinator.secret"

// identityPrefix starts every worker identity made by [NewIdentity].
const identityPrefix = "w"

// An Identity is a worker's name on the cluster and how it proves it.
type Identity struct {
	// User is the identity: the NATS user name, and the token of the worker's subjects.
	User string
	// Password is what the worker gives the server: "<token>:<secret>" for an identity
	// made by NewIdentity, or the password the operator gave.
	Password string
}

// NewIdentity makes a new worker identity for a server whose shared token is token: a
// random secret and the user name derived from it. With no token (a server that asks for
// none) the identity is a name only, which nothing enforces.
func NewIdentity(token string) Identity {
	secret := NewToken() + NewToken()
	id := Identity{User: identityOf(secret)}
	if token != "" {
		id.Password = token + ":" + secret
	}
	return id
}

// identityOf returns the identity whose secret is secret.
func identityOf(secret string) string {
	sum := sha256.Sum256([]byte("chesspuzzles identity\x00" + secret))
	return identityPrefix + hex.EncodeToString(sum[:8])
}

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

// authenticator is the embedded server's check of every client's credentials.
type authenticator struct {
	token, admin string
}

func (a *authenticator) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	switch {
	case a.admin != "" && o.Username == AdminUser && equal(o.Password, a.admin):
		c.RegisterUser(&server.User{Username: AdminUser})
		return true
	case a.token != "" && strings.HasPrefix(o.Username, identityPrefix):
		token, secret, ok := strings.Cut(o.Password, ":")
		if !ok || secret == "" || !equal(token, a.token) || identityOf(secret) != o.Username {
			return false
		}
		c.RegisterUser(&server.User{Username: o.Username, Permissions: WorkerPermissions(o.Username)})
		return true
	}
	return false
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// LoadOrCreateAdmin returns the coordinator's secret kept in dir/coordinator.secret,
// creating it (mode 0600) if it does not exist, as [LoadOrCreateToken] does the token.
func LoadOrCreateAdmin(dir string) (string, error) {
	s, _, err := loadOrCreateSecret(dir, AdminFile)
	return s, err
}

// ReadAdmin returns the coordinator's secret kept in dir, or an error wrapping
// fs.ErrNotExist if there is none.
func ReadAdmin(dir string) (string, error) {
	return ReadTokenFile(filepath.Join(dir, AdminFile))
}

// loadOrCreateSecret is LoadOrCreateToken for the file name in dir.
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
