package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// DefaultMaxConnections is the most connections one worker identity may hold at once on
// the embedded server unless ServerOptions.MaxConnections says otherwise. A worker holds
// one; a few more leave room for a restarted worker whose old connection the server has
// not seen close yet, or a machine running two worker processes under one identity.
const DefaultMaxConnections = 8

// A connCap holds each identity to at most max connections on the embedded server, so
// that one credential cannot take the server's (or the machine's) file descriptors and
// keep honest workers out. NATS's JWT limits bound the connections of an account, which
// all workers share, not of one user; so the server's connect and disconnect events (on
// the system account) are followed, and a connection past an identity's cap is closed as
// soon as its event comes: a moment after it was let in. Connections of the coordinator's
// own users (reservedNames) are not capped.
type connCap struct {
	max   int
	kick  func(id connID) error
	logf  func(format string, args ...any)
	mu    sync.Mutex
	conns map[string][]connID // the open connections of each identity, oldest first
	who   map[connID]string   // the identity of each connection counted
	said  map[string]time.Time
	kicks map[string]int       // connections closed since the identity's last logged line
	shut  map[string]time.Time // identities shut out until then (shun)
	// ban, if not nil, has the server refuse the identities given at authentication,
	// and no other (shutout.go); banMu keeps its pushes in order; lifts says whether an
	// account JWT another pushed lets any of the identities given in.
	ban   func(names []string) error
	banMu sync.Mutex
	lifts func(token string, names []string) bool
}

// A connID names a connection: the server's ID, and the connection's number on it.
type connID struct {
	server string
	cid    uint64
}

func newConnCap(max int, kick func(connID) error, logf func(string, ...any)) *connCap {
	return &connCap{max: max, kick: kick, logf: logf, conns: map[string][]connID{}, who: map[connID]string{},
		said: map[string]time.Time{}, kicks: map[string]int{}, shut: map[string]time.Time{}}
}

// connected counts connection cid of identity user, and closes it if user holds max
// already.
func (c *connCap) connected(user string, cid connID) {
	if slices.Contains(reservedNames, user) || user == "" {
		return
	}
	c.mu.Lock()
	if _, dup := c.who[cid]; dup {
		c.mu.Unlock()
		return
	}
	shut := time.Now().Before(c.shut[user])
	over := shut || len(c.conns[user]) >= c.max
	if !over {
		c.conns[user] = append(c.conns[user], cid)
		c.who[cid] = user
	}
	var line string
	if over && !shut {
		c.kicks[user]++
		if now := time.Now(); now.Sub(c.said[user]) >= refuseEvery {
			line = fmt.Sprintf("worker %s holds %d connections, the most one identity may: closing %d more it opened", clipName(user), c.max, c.kicks[user])
			c.said[user], c.kicks[user] = now, 0
		}
	}
	c.mu.Unlock()
	if over {
		_ = c.kick(cid)
		if line != "" && c.logf != nil {
			c.logf("%s", line)
		}
	}
}

// shun closes the connections of identity user, and those it opens until d from now; with
// ban, the server refuses them at authentication meanwhile (pushBans).
func (c *connCap) shun(user string, d time.Duration) {
	if slices.Contains(reservedNames, user) {
		return
	}
	c.mu.Lock()
	c.shut[user] = time.Now().Add(d)
	cids := slices.Clone(c.conns[user])
	c.mu.Unlock()
	for _, cid := range cids {
		_ = c.kick(cid)
	}
	if c.ban != nil {
		go c.pushBans()
		time.AfterFunc(d, c.pushBans)
	}
}

// gone forgets connection cid.
func (c *connCap) gone(cid connID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	user, ok := c.who[cid]
	if !ok {
		return
	}
	delete(c.who, cid)
	c.conns[user] = slices.DeleteFunc(c.conns[user], func(x connID) bool { return x == cid })
	if len(c.conns[user]) == 0 {
		delete(c.conns, user)
	}
}

// held returns the connections identity user holds.
func (c *connCap) held(user string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.conns[user])
}

// capConnections connects to the embedded server s as its system account and follows the
// connect and disconnect events of the workers' account, holding each identity to max
// connections. It returns the system connection, which the caller closes at shutdown.
func capConnections(s *server.Server, a *Authority, max int, logf func(string, ...any)) (*nats.Conn, *connCap, error) {
	nc, err := a.capConn(s.ClientURL(), nats.InProcessServer(s))
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to the embedded server as its system account: %w", err)
	}
	cc := newConnCap(max, func(id connID) error { return s.DisconnectClientByID(id.cid) }, logf)
	if err := cc.follow(nc, a); err != nil {
		nc.Close()
		return nil, nil, err
	}
	return nc, cc, nil
}

// capConn connects to url as a's system account, for a connCap: named so, reconnecting
// for ever, with opts.
func (a *Authority) capConn(url string, opts ...nats.Option) (*nats.Conn, error) {
	creds, _, err := a.sysUser()
	if err != nil {
		return nil, err
	}
	token, seed, err := splitCreds(creds)
	if err != nil {
		return nil, err
	}
	return nats.Connect(url, append([]nats.Option{nats.UserJWTAndSeed(token, seed), nats.Name("chesspuzzles connection cap"), nats.MaxReconnects(-1)}, opts...)...)
}

// follow has c follow, on nc, a system account connection, the connect and disconnect
// events of a's workers' account, and the pushes of its JWT by others (liftedBans); and
// ban identities at authentication by pushing it (banner).
func (c *connCap) follow(nc *nats.Conn, a *Authority) error {
	c.ban, c.lifts = a.banner(nc), a.lifts
	var ev struct {
		Server server.ServerInfo `json:"server"`
		Client server.ClientInfo `json:"client"`
	}
	var mu sync.Mutex // the two subscriptions' handlers share ev
	if _, err := nc.Subscribe("$SYS.ACCOUNT."+a.accountPub+".CONNECT", func(m *nats.Msg) {
		mu.Lock()
		defer mu.Unlock()
		ev.Server, ev.Client = server.ServerInfo{}, server.ClientInfo{}
		if json.Unmarshal(m.Data, &ev) != nil || ev.Client.Jwt == "" {
			return
		}
		uc, err := jwt.DecodeUserClaims(ev.Client.Jwt)
		if err != nil {
			return
		}
		c.connected(uc.Name, connID{ev.Server.ID, ev.Client.ID})
	}); err != nil {
		return err
	}
	if _, err := nc.Subscribe("$SYS.ACCOUNT."+a.accountPub+".DISCONNECT", func(m *nats.Msg) {
		mu.Lock()
		defer mu.Unlock()
		ev.Server, ev.Client = server.ServerInfo{}, server.ClientInfo{}
		if json.Unmarshal(m.Data, &ev) == nil {
			c.gone(connID{ev.Server.ID, ev.Client.ID})
		}
	}); err != nil {
		return err
	}
	// A push of the account by another ("worker revoke") would lift the shut-outs.
	if _, err := nc.Subscribe("$SYS.REQ.ACCOUNT."+a.accountPub+".CLAIMS.UPDATE", func(m *nats.Msg) { c.liftedBans(m.Data) }); err != nil {
		return err
	}
	return nc.Flush()
}
