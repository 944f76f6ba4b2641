package cluster

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerOptions configures an embedded NATS server.
type ServerOptions struct {
	// Listen is host:port; port 0 picks a free port.
	Listen string
	// StoreDir holds JetStream's files; a server started again on the same directory finds
	// its streams, consumers and buckets as they were.
	StoreDir string
	// Authority, if not nil, is the operator the server trusts: a client gets in only as
	// a user the authority's account signed (see [Authority]). The command line's
	// coordinator always sets it; with none, any client connects with every right.
	Authority *Authority
	// MaxConnections is the most connections one identity the Authority issued may hold
	// at once (DefaultMaxConnections if zero, no cap if negative): past it a connection
	// is closed a moment after it is let in (see connCap). Logf, if not nil, is told of
	// the identities that go past it, once per identity every 10 s.
	MaxConnections int
	Logf           func(format string, args ...any)
	// auth, if not nil and Authority is nil, checks every client instead: the tests' token
	// scheme (tokenAuth).
	auth server.Authentication
	// maxConn, if not zero, is the server's limit on all its connections: a test's
	// stand-in for the file descriptors of the machine.
	maxConn int
}

// A Server is an embedded nats-server with JetStream.
type Server struct {
	s     *server.Server
	sys   *nats.Conn // the connection cap's, if any
	conns *connCap
	stop  context.CancelFunc // ends the flood watch, if any
}

// StartServer starts an embedded server and waits until it accepts connections (a few
// milliseconds, more when it recovers a large store).
func StartServer(o ServerOptions) (*Server, error) {
	host, portStr, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen address must be host:port, got %q", o.Listen)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen port must be from 0 to 65535, got %q", portStr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	} else {
		// The embedded server reports a taken port only by never becoming ready: look first.
		l, err := net.Listen("tcp", o.Listen)
		if err != nil {
			return nil, fmt.Errorf("NATS server cannot listen on %s: %w", o.Listen, err)
		}
		l.Close()
	}
	if err := os.MkdirAll(o.StoreDir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	opts := &server.Options{
		ServerName: "chesspuzzles",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   o.StoreDir,
		NoSigs:     true,
		NoLog:      true,
		MaxPayload: MaxMessageBytes,
		MaxConn:    o.maxConn,
	}
	if o.Authority != nil {
		if err := o.Authority.configure(opts); err != nil {
			return nil, fmt.Errorf("starting NATS server: %w", err)
		}
	} else if o.auth != nil {
		opts.CustomClientAuthentication = o.auth
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("starting NATS server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("NATS server on %s did not start within 30s (is the port taken?)", o.Listen)
	}
	srv := &Server{s: s}
	if max := o.MaxConnections; o.Authority != nil && max >= 0 {
		if max == 0 {
			max = DefaultMaxConnections
		}
		if srv.sys, srv.conns, err = capConnections(s, o.Authority, max, o.Logf); err != nil {
			s.Shutdown()
			return nil, fmt.Errorf("starting NATS server: %w", err)
		}
		var ctx context.Context
		ctx, srv.stop = context.WithCancel(context.Background())
		go watchFloods(ctx, serverCounts(s, o.Authority.accountPub), srv.conns)
	}
	return srv, nil
}

// Addr returns the address the server listens on.
func (s *Server) Addr() *net.TCPAddr {
	a, _ := s.s.Addr().(*net.TCPAddr)
	return a
}

// URL returns a nats:// URL for clients on this machine.
func (s *Server) URL() string { return s.s.ClientURL() }

// Shutdown stops the server and waits until it has.
func (s *Server) Shutdown() {
	if s.stop != nil {
		s.stop()
	}
	if s.sys != nil {
		s.sys.Close()
	}
	s.s.Shutdown()
	s.s.WaitForShutdown()
}

// IsLoopback reports whether a listen address host is loopback only ("127.0.0.1",
// "::1", "localhost"); an empty host or 0.0.0.0 listens on every interface.
func IsLoopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
