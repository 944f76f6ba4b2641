package cluster

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// The token scheme: how the tests (and their benchmarks) start a server without an
// [Authority], by setting ServerOptions.auth to [tokenAuth]. Such a server admits two
// kinds of client:
//
//   - the coordinator, user [AdminUser] with a secret of its own: it may do anything, and
//     is the only client that may touch JetStream;
//   - a worker, user "w" + 16 hex digits with the password "<token>:<secret>", where token
//     is the cluster's shared token and the 16 digits are the start of the SHA-256 of
//     secret, a random string the worker makes when it starts (see [NewIdentity]), with a
//     worker's permissions only ([WorkerPermissions]).
//
// Whoever holds the token can make as many identities as they like, which is why no
// production code starts such a server: the command line's embedded server trusts only the
// identities its Authority issued (identity.go).

// AdminUser is the NATS user name of the coordinator on a server of the token scheme.
const AdminUser = "coordinator"

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

// connectTokenWorker connects a worker of a new identity made with token (NewIdentity) to
// url, as ConnectWorker does, and returns its connection and identity.
func connectTokenWorker(ctx context.Context, url, token, name string) (*nats.Conn, string, error) {
	id := NewIdentity(token)
	return ConnectWorker(ctx, ConnectOptions{URL: url, User: id.User, Password: id.Password, Name: name})
}

// tokenAuth returns the check of a server of the token scheme: workers give token, the
// coordinator admin (either may be empty: nobody gets in that way).
func tokenAuth(token, admin string) server.Authentication {
	return &authenticator{token: token, admin: admin}
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

// TokenFile is the name of the file, in a state directory, that holds a shared token of the
// token scheme: what a worker gives, with a secret of its own, to a server of that scheme.
// No production code makes one: the command line's embedded server admits only issued
// identities.
const TokenFile = "token"

// LoadOrCreateToken returns the token kept in dir/token, creating the directory (mode 0700)
// and the file (mode 0600, a new [NewToken]) if they do not exist. created reports whether
// the file is new.
//
// It refuses a token file that other users may read or write (mode 0600 is wanted, as ssh
// wants for its keys) and one that holds no token. The file appears whole or not at all: it
// is written under another name, synced, then linked into place, so that two coordinators
// started at once on one directory agree on one token.
func LoadOrCreateToken(dir string) (token string, created bool, err error) {
	return loadOrCreateSecret(dir, TokenFile)
}
