package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// The connection cap (connlimit.go), the flood shut-out (flood.go) and the refusal at
// authentication of a shut-out identity (shutout.go) need the system account: its
// connect and disconnect events, each server's connection counters, a way to close a
// connection, and account JWT pushes. On a server the coordinator did not start ("queens
// count --nats URL") it has them when that server trusts the state directory's operator
// and system account, as "chesspuzzles worker server-config" configures it: the events
// and counters come over the network (every server of a cluster answers), a connection
// is closed by the kick request of the server that holds it ($SYS.REQ.SERVER.<id>.KICK,
// nats-server 2.10 and later), and the JWT pushed reaches every server through its
// routes. Where the server trusts another operator, the coordinator cannot, and says at
// start what the operator must set instead (externalLimits).

// externalGather is how long a request for the servers' connection counters waits for
// their answers: each server of a cluster that holds connections of the account answers
// once.
const externalGather = 100 * time.Millisecond

// watchExternal holds the identities a issued to max connections each on the servers at
// url, and shuts out those that flood them, as the embedded server does, until ctx ends
// or stop is called. It connects as a's system account; an error says the servers do not
// let it in (or answer nothing of it), and then nothing is held. Connections open before
// it starts are counted from the servers' list of them. Its cost: a connection, a
// request for the counters every floodEvery, and a decoding of each connect event. It
// returns the connCap that holds them.
func watchExternal(ctx context.Context, url string, a *Authority, max int, logf func(string, ...any)) (cc *connCap, stop func(), err error) {
	nc, err := a.capConn(url, nats.Timeout(DefaultConnectTimeout))
	if err != nil {
		return nil, nil, fmt.Errorf("connecting as the system account of this state directory: %w", err)
	}
	cc = newConnCap(max, kicker(nc), logf)
	if err := cc.follow(nc, a); err != nil {
		nc.Close()
		return nil, nil, err
	}
	counts := accountCounts(nc, a.accountPub)
	open, err := counts(ctx, true)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	for _, c := range open {
		if c.user != "" {
			cc.connected(c.user, c.id)
		}
	}
	wctx, cancel := context.WithCancel(ctx)
	go watchFloods(wctx, func(ctx context.Context) ([]connCount, error) {
		cs, err := counts(ctx, false)
		out := make([]connCount, len(cs))
		for i, c := range cs {
			out[i] = c.connCount
		}
		return out, err
	}, cc)
	return cc, func() { cancel(); nc.Close() }, nil
}

// kicker returns the function that closes a connection on the server that holds it, by
// its kick request over nc, a system account connection. It does not wait for the
// answer: the connect event handler that calls it must not stall.
func kicker(nc *nats.Conn) func(connID) error {
	nowhere := nats.NewInbox() // the answers are not read
	return func(id connID) error {
		data, _ := json.Marshal(server.KickClientReq{CID: id.cid})
		return nc.PublishRequest("$SYS.REQ.SERVER."+id.server+".KICK", nowhere, data)
	}
}

// A namedCount is a connection's counters and, if asked for, its identity.
type namedCount struct {
	connCount
	user string
}

// accountCounts returns the function that asks every server, over nc, for the
// connections of account, their counters and (with names) their identities, and gathers
// the answers for externalGather. It is an error if no server answers.
func accountCounts(nc *nats.Conn, account string) func(ctx context.Context, names bool) ([]namedCount, error) {
	subject := "$SYS.REQ.ACCOUNT." + account + ".CONNZ"
	return func(ctx context.Context, names bool) ([]namedCount, error) {
		req, _ := json.Marshal(server.ConnzEventOptions{ConnzOptions: server.ConnzOptions{Limit: 1 << 20, Username: names}})
		inbox := nats.NewInbox()
		sub, err := nc.SubscribeSync(inbox)
		if err != nil {
			return nil, err
		}
		defer sub.Unsubscribe()
		if err := nc.PublishRequest(subject, inbox, req); err != nil {
			return nil, err
		}
		var out []namedCount
		answers := 0
		end := time.Now().Add(externalGather)
		for {
			wait := time.Until(end)
			if answers == 0 {
				wait += time.Second // the first answer may take a round trip or two
			}
			mctx, cancel := context.WithTimeout(ctx, wait)
			m, err := sub.NextMsgWithContext(mctx)
			cancel()
			if err != nil {
				break
			}
			var resp struct {
				Server server.ServerInfo `json:"server"`
				Data   *server.Connz     `json:"data"`
			}
			if json.Unmarshal(m.Data, &resp) != nil || resp.Data == nil {
				continue
			}
			answers++
			for _, c := range resp.Data.Conns {
				n := namedCount{connCount: connCount{connID{resp.Server.ID, c.Cid}, c.InMsgs, c.InBytes}}
				if names && c.JWT != "" {
					if uc, err := jwt.DecodeUserClaims(c.JWT); err == nil {
						n.user = uc.Name
					}
				}
				out = append(out, n)
			}
		}
		if answers == 0 {
			return nil, fmt.Errorf("no server answered %s", subject)
		}
		return out, nil
	}
}
