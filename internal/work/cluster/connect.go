package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// ConnectOptions says how to reach a NATS server.
type ConnectOptions struct {
	URL string
	// Token, if not empty, is the NATS token of a server of the operator's own that wants
	// one.
	Token string
	// Creds, if not empty, is a NATS credentials file (a user JWT and its key), for a
	// cluster that authenticates users by NATS's decentralized auth. A user and password
	// may also be given in the URL (nats://user:password@host:4222).
	Creds string
	// UserCreds, if not empty, are the contents of such a credentials file (an identity
	// the coordinator made for itself, never written down).
	UserCreds []byte
	// User and Password, if User is not empty, are the client's user and password: a worker
	// identity's that the operator gave as user and password, or the tests' (tokenscheme_test.go).
	User, Password string
	// InboxPrefix, if not empty, is the prefix of the client's reply subjects: a worker's
	// must be InboxPrefix(its identity), the only subjects it may receive on.
	InboxPrefix string
	Name        string // the client name the server shows
	// Logf, if not nil, is told about disconnections and reconnections.
	Logf func(format string, args ...any)
	// Timeout is how long Connect waits for the first connection (DefaultConnectTimeout
	// if zero).
	Timeout time.Duration
}

// DefaultConnectTimeout is how long Connect waits for a server by default: a server that
// answers at all answers within milliseconds, and a wrong URL should be said at once.
const DefaultConnectTimeout = 2 * time.Second

// Connect opens a connection that retries the first connect and reconnects for ever, half
// a second apart, after losing the server. It returns once connected or when ctx is done.
func Connect(ctx context.Context, o ConnectOptions) (*nats.Conn, error) {
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				logf("lost the connection to %s: %v; reconnecting", o.URL, err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { logf("reconnected to %s", c.ConnectedUrlRedacted()) }),
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.Creds != "" {
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	if len(o.UserCreds) > 0 {
		token, seed, err := splitCreds(o.UserCreds)
		if err != nil {
			return nil, &connectError{o.URL, err}
		}
		opts = append(opts, nats.UserJWTAndSeed(token, seed))
	}
	if o.User != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}
	if o.InboxPrefix != "" {
		opts = append(opts, nats.CustomInboxPrefix(o.InboxPrefix))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, &connectError{o.URL, err}
	}
	// With RetryOnFailedConnect, Connect returns at once; wait for the first connection so
	// that a wrong token or URL is reported rather than retried in silence for ever.
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	deadline := time.Now().Add(timeout)
	for !nc.IsConnected() {
		if err := nc.LastError(); err != nil && isAuthError(err) {
			nc.Close()
			return nil, &connectError{o.URL, fmt.Errorf("%w: %w", ErrRefused, err)}
		}
		if time.Now().After(deadline) {
			err := nc.LastError()
			nc.Close()
			if err == nil {
				err = fmt.Errorf("no answer within %v", timeout)
			}
			return nil, &connectError{o.URL, err}
		}
		select {
		case <-ctx.Done():
			nc.Close()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nc, nil
}

// ErrCannotConnect is what [Connect] wraps when it finds no server at the URL, or one that
// refuses the token: the URL or the token given is wrong.
var ErrCannotConnect = errors.New("cannot connect")

type connectError struct {
	url string
	err error
}

func (e *connectError) Error() string   { return fmt.Sprintf("connecting to %q: %v", e.url, e.err) }
func (e *connectError) Unwrap() []error { return []error{ErrCannotConnect, e.err} }

// ErrRefused is the error [Connect] wraps when the server refuses the client's credentials
// (no token, a wrong token, an unknown user).
var ErrRefused = errors.New("the server refused this client's credentials")

func isAuthError(err error) bool {
	return errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization")
}

// ConnectWorker connects a worker and returns its identity. With credentials (o.Creds, a
// file, or o.UserCreds) the identity is the user they name: the usual case, an identity
// the operator issued ([Authority.Issue]). With o.User set (an identity the operator gave
// as user and password) it connects as that user. With neither it connects under a name
// of its own making ("w" and 16 random hex digits, with o.Token if set), which only a
// server that checks no identity admits. Either way the connection's inboxes are the
// identity's.
func ConnectWorker(ctx context.Context, o ConnectOptions) (*nats.Conn, string, error) {
	switch {
	case len(o.UserCreds) > 0 || o.Creds != "":
		creds := o.UserCreds
		if len(creds) == 0 {
			var err error
			if creds, err = ReadCreds(o.Creds); err != nil {
				return nil, "", fmt.Errorf("reading the credentials: %w", err)
			}
		}
		name, err := CredsIdentity(creds)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", o.Creds, err)
		}
		if o.User != "" && o.User != name {
			return nil, "", fmt.Errorf("the credentials are of identity %q, not %q", name, o.User)
		}
		o.User, o.Password, o.Token, o.Creds, o.UserCreds = name, "", "", "", creds
	case o.User == "":
		o.User, o.Password = "w"+NewToken()[:16], ""
	}
	if !ValidIdentity(o.User) {
		return nil, "", fmt.Errorf("worker identity must be 1 to 64 letters, digits, '-' or '_', got %q", o.User)
	}
	user := o.User
	if len(o.UserCreds) > 0 {
		o.User, o.Password = "", "" // the credentials say who the client is
	}
	o.InboxPrefix = InboxPrefix(user)
	nc, err := Connect(ctx, o)
	return nc, user, err
}

// ReadCreds reads a credentials file. It refuses one that users other than its owner and
// group may read, or that any but its owner may write: the key in it is the identity.
// (Group read is allowed for the secret volumes of Kubernetes, owned by root and the
// pod's group.)
func ReadCreds(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if perm := info.Mode().Perm(); perm&0o027 != 0 {
		return nil, fmt.Errorf("%s can be read or written by other users (mode %04o); make it the owner's only: chmod 600 %s", path, perm, path)
	}
	return os.ReadFile(path)
}
