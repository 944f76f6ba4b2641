package cluster

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats.go"
)

// A shut-out identity is refused at authentication, not only closed after: closing its
// connections a moment after their connect events (connCap) lets each reconnection in
// for that moment, and nats.go flushes its reconnect buffer (8 MB by default) as soon as
// it is back, every two seconds. So while an identity is shut out the account JWT the
// embedded server holds revokes its keys (as "worker revoke" does for good, with the
// permanent revocations of the identities file kept), pushed over the system account's
// connection; when the last shut-out ends, the JWT without it is pushed again. A JWT
// another pushes meanwhile ("worker revoke", which knows nothing of the shut-outs) would
// lift them early: the coordinator sees the push on the same connection (liftedBans) and
// pushes its own again, read from the identities file, the new revocation with it.

// shutOutPush is how long pushing the account JWT to the embedded server may take.
const shutOutPush = 5 * time.Second

// banner returns the function with which a connCap bans identities at authentication on
// the embedded server that nc, a system account connection, is connected to: it pushes
// a's account JWT revoking, besides the identities file's revocations, every key issued
// to the names given. It takes a read of the identities file, a signature and a round
// trip to the server.
func (a *Authority) banner(nc *nats.Conn) func(names []string) error {
	return func(names []string) error {
		ids, err := readIdentities(a.dir)
		if err != nil {
			return err
		}
		ac := a.accountClaims(ids)
		now := time.Now()
		for _, id := range ids {
			if slices.Contains(names, id.Name) {
				ac.RevokeAt(id.Key, now)
			}
		}
		token, err := ac.Encode(a.operator)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), shutOutPush)
		defer cancel()
		if err := pushClaims(ctx, nc, a.accountPub, token); err != nil {
			return fmt.Errorf("pushing the account's revocations: %w", err)
		}
		return nil
	}
}

// banned returns the identities shut out now, sorted.
func (c *connCap) banned() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	var names []string
	for user, until := range c.shut {
		if now.Before(until) {
			names = append(names, user)
		}
	}
	slices.Sort(names)
	return names
}

// pushBans has the server refuse at authentication the identities shut out now, and
// none other; it is called when one is shut out, when a shut-out ends, and when another
// pushed the account meanwhile. A failure is logged: the connections are still closed at
// their connect events.
func (c *connCap) pushBans() {
	if c.ban == nil {
		return
	}
	c.banMu.Lock()
	defer c.banMu.Unlock()
	names := c.banned()
	if err := c.ban(names); err != nil && c.logf != nil {
		c.logf("shutting out %d identities at authentication: %v; their connections are still closed as they come", len(names), err)
	}
}

// liftedBans follows a push of the account's JWT (token) that the server was sent: one
// that does not revoke the identities shut out now (another's: the coordinator's own
// do) lifts their shut-outs at authentication, and they are pushed again. The server
// takes the pushes in the order they come, so the coordinator's, sent once it has seen
// the other, is the one that holds.
func (c *connCap) liftedBans(token []byte) {
	names := c.banned()
	if len(names) == 0 || c.lifts == nil || !c.lifts(string(token), names) {
		return
	}
	go c.pushBans()
}

// lifts reports whether the account JWT token lets in any of the identities names: it
// revokes not every key issued to them. A token it cannot read lifts nothing (the
// server refuses it too).
func (a *Authority) lifts(token string, names []string) bool {
	ac, err := jwt.DecodeAccountClaims(token)
	if err != nil || ac.Subject != a.accountPub {
		return false
	}
	ids, err := readIdentities(a.dir)
	if err != nil {
		return false
	}
	for _, id := range ids {
		if _, revoked := ac.Revocations[id.Key]; slices.Contains(names, id.Name) && !revoked {
			return true
		}
	}
	return false
}
