package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/chesspuzzles/chesspuzzles/internal/work/cluster"
	"github.com/spf13/pflag"
)

// tokenEnv names the environment variable that gives the NATS token when no flag does.
const tokenEnv = "CHESSPUZZLES_NATS_TOKEN"

// natsAuth holds the flags that say how a client authenticates to a NATS server.
type natsAuth struct {
	token     string
	tokenFile string
	creds     string
}

// addAuthFlags adds --token, --token-file and --creds to f.
func addAuthFlags(f *pflag.FlagSet, a *natsAuth, tokenUsage string) {
	f.StringVar(&a.token, "token", "", tokenUsage)
	f.StringVar(&a.tokenFile, "token-file", "", "read the token from `FILE` (mode 600)")
	f.StringVar(&a.creds, "creds", "", "NATS credentials `FILE` (user JWT and key) for a cluster that wants one")
}

// given returns the token the user gave: --token, else --token-file, else $CHESSPUZZLES_NATS_TOKEN,
// else "" (none given).
func (a *natsAuth) given() (string, error) {
	switch {
	case a.token != "" && a.tokenFile != "":
		return "", usageErrorf("give the token once: --token or --token-file, not both")
	case a.token != "":
		return a.token, nil
	case a.tokenFile != "":
		t, err := cluster.ReadTokenFile(a.tokenFile)
		if err != nil {
			return "", usageError(err)
		}
		return t, nil
	}
	return os.Getenv(tokenEnv), nil
}

// loopbackURL reports whether every server a NATS URL list names is on this machine.
func loopbackURL(s string) bool {
	for _, one := range strings.Split(s, ",") {
		u, err := url.Parse(strings.TrimSpace(one))
		if err != nil || u.Hostname() == "" {
			return false
		}
		if !cluster.IsLoopback(net.JoinHostPort(u.Hostname(), "0")) {
			return false
		}
	}
	return true
}

// urlUser returns the user named in the first URL of a NATS URL list, "" if none.
func urlUser(s string) string {
	first, _, _ := strings.Cut(s, ",")
	u, err := url.Parse(strings.TrimSpace(first))
	if err != nil || u.User == nil {
		return ""
	}
	return u.User.Username()
}

// urlPassword returns the password in the first URL of a NATS URL list, "" if none.
func urlPassword(s string) string {
	first, _, _ := strings.Cut(s, ",")
	u, err := url.Parse(strings.TrimSpace(first))
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// refusedHint rewrites a refused connection as one line that says where credentials come
// from.
func refusedHint(err error, natsURL string) error {
	if !errors.Is(err, cluster.ErrRefused) {
		return err
	}
	return fmt.Errorf("the NATS server at %s refused this client's credentials (authorization violation): a worker needs credentials its operator issued (\"chesspuzzles worker add NAME\" on the coordinator's machine writes NAME.creds; give it with --creds NAME.creds); a token alone gets nothing",
		natsURL)
}

// stateAuthority checks the state directory dir and returns the authority kept in it,
// made on first use when create is set.
func stateAuthority(dir string, create bool) (*cluster.Authority, error) {
	if err := cluster.CheckStateDir(dir); err != nil {
		return nil, usageError(err)
	}
	var a *cluster.Authority
	var err error
	if create {
		a, err = cluster.LoadOrCreateAuthority(dir)
	} else {
		a, err = cluster.LoadAuthority(dir)
	}
	if err != nil {
		return nil, usageError(err)
	}
	return a, nil
}
