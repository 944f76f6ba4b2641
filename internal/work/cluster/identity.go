package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Issued identities. A coordinator's state directory holds an [Authority]: the keys of a
// NATS operator, of one account for the count and of the server's system account, as NATS's
// decentralized authentication has them (nkeys and JWTs). The embedded server trusts that
// operator and knows the two accounts (a memory resolver), so a client gets in only with a
// user JWT signed by the account key, which never leaves the state directory. The operator
// of the cluster issues one such user per worker ([Authority.Issue], "chesspuzzles worker
// add NAME": a credentials file, the JWT and the user's own key) and may revoke it
// ([Authority.Revoke]: a revocation in the account JWT, pushed to the running server,
// which closes the user's connections and refuses it from then on).
//
// A worker user's JWT carries its name and permissions ([WorkerPermissions]): it may
// publish only on its own subjects and receive only on its own inbox. The identity of a
// message is so the subject's name token, which the server allows only to the user the
// account signed, never a field the worker writes. A shared token lets nobody in.

// AuthorityFile is the file, in a coordinator's state directory, that holds the secret
// keys (nkey seeds) of the operator, the account and the system account (mode 0600).
const AuthorityFile = "authority.json"

// IdentitiesFile is the file, in a coordinator's state directory, that lists the issued
// identities (public keys only).
const IdentitiesFile = "identities.json"

// reservedNames are names no worker may take: they name the coordinator in logs.
var reservedNames = []string{"coordinator", "system", "local"}

// An Authority issues and revokes the identities of a coordinator's cluster. It is not
// safe for concurrent use; two processes (a running coordinator and "worker add") may
// share a state directory: only the issuing commands write the identities.
type Authority struct {
	dir                       string
	operator, account, system nkeys.KeyPair
	operatorJWT, systemJWT    string
	operatorPub, accountPub   string
	systemPub                 string
	identities                []IssuedIdentity
	accountJWT                string
	operatorClaims            *jwt.OperatorClaims
}

// An IssuedIdentity is one credential the operator issued: the worker's name (the token of
// its subjects), its user public key, when it was issued and when revoked (zero if not).
type IssuedIdentity struct {
	Name    string    `json:"name"`
	Key     string    `json:"key"`
	Issued  time.Time `json:"issued"`
	Revoked time.Time `json:"revoked,omitzero"`
}

type authorityKeys struct {
	Operator string `json:"operator"`
	Account  string `json:"account"`
	System   string `json:"system"`
}

// LoadOrCreateAuthority returns the authority kept in dir, creating its keys (mode 0600)
// on first use. It refuses a key file that others may read or write. It costs a few
// signatures (milliseconds).
func LoadOrCreateAuthority(dir string) (*Authority, error) {
	return loadAuthority(dir, true)
}

// LoadAuthority returns the authority kept in dir, or an error wrapping fs.ErrNotExist if
// dir holds none.
func LoadAuthority(dir string) (*Authority, error) {
	return loadAuthority(dir, false)
}

func loadAuthority(dir string, create bool) (*Authority, error) {
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("state directory: %w", err)
		}
	}
	path := filepath.Join(dir, AuthorityFile)
	var keys authorityKeys
	data, err := readPrivate(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &keys); err != nil {
			return nil, fmt.Errorf("%s is damaged: %v", path, err)
		}
	case errors.Is(err, fs.ErrNotExist) && !create:
		return nil, fmt.Errorf("no identities were issued in %s (no %s): %w", dir, AuthorityFile, err)
	case errors.Is(err, fs.ErrNotExist):
		keys, err = newAuthorityKeys()
		if err != nil {
			return nil, err
		}
		data, _ := json.MarshalIndent(keys, "", "  ")
		if err := writePrivate(path, data, true); err != nil {
			if !errors.Is(err, fs.ErrExist) {
				return nil, err
			}
			return LoadOrCreateAuthority(dir) // another process made it first
		}
	default:
		return nil, err
	}
	a := &Authority{dir: dir}
	for _, k := range []struct {
		seed string
		kp   *nkeys.KeyPair
	}{{keys.Operator, &a.operator}, {keys.Account, &a.account}, {keys.System, &a.system}} {
		if *k.kp, err = nkeys.FromSeed([]byte(k.seed)); err != nil {
			return nil, fmt.Errorf("%s is damaged: %v", path, err)
		}
	}
	a.operatorPub, _ = a.operator.PublicKey()
	a.accountPub, _ = a.account.PublicKey()
	a.systemPub, _ = a.system.PublicKey()
	oc := jwt.NewOperatorClaims(a.operatorPub)
	oc.Name = "chesspuzzles"
	oc.SystemAccount = a.systemPub
	if a.operatorJWT, err = oc.Encode(a.operator); err != nil {
		return nil, err
	}
	a.operatorClaims = oc
	sc := jwt.NewAccountClaims(a.systemPub)
	sc.Name = "SYS"
	if a.systemJWT, err = sc.Encode(a.operator); err != nil {
		return nil, err
	}
	if err := a.reload(); err != nil {
		return nil, err
	}
	return a, nil
}

func newAuthorityKeys() (authorityKeys, error) {
	var k authorityKeys
	for _, p := range []struct {
		make func() (nkeys.KeyPair, error)
		seed *string
	}{{nkeys.CreateOperator, &k.Operator}, {nkeys.CreateAccount, &k.Account}, {nkeys.CreateAccount, &k.System}} {
		kp, err := p.make()
		if err != nil {
			return k, err
		}
		seed, err := kp.Seed()
		if err != nil {
			return k, err
		}
		*p.seed = string(seed)
	}
	return k, nil
}

// reload reads the issued identities and signs the account JWT with their revocations.
func (a *Authority) reload() error {
	ids, err := readIdentities(a.dir)
	if err != nil {
		a.identities = nil
		return err
	}
	a.identities = ids
	a.accountJWT, err = a.accountClaims(ids).Encode(a.operator)
	return err
}

// readIdentities returns the identities listed in dir's IdentitiesFile (none if there is
// no such file).
func readIdentities(dir string) ([]IssuedIdentity, error) {
	var ids []IssuedIdentity
	data, err := os.ReadFile(filepath.Join(dir, IdentitiesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &ids); err != nil {
		return nil, fmt.Errorf("%s is damaged: %v", filepath.Join(dir, IdentitiesFile), err)
	}
	return ids, nil
}

// accountClaims returns the claims of the count's account, with the revocations of ids.
func (a *Authority) accountClaims(ids []IssuedIdentity) *jwt.AccountClaims {
	ac := jwt.NewAccountClaims(a.accountPub)
	ac.Name = "chesspuzzles"
	ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: jwt.NoLimit, DiskStorage: jwt.NoLimit, Streams: jwt.NoLimit, Consumer: jwt.NoLimit}
	for _, id := range ids {
		if !id.Revoked.IsZero() {
			ac.RevokeAt(id.Key, id.Revoked)
		}
	}
	return ac
}

// Identities returns the issued identities, oldest first.
func (a *Authority) Identities() []IssuedIdentity { return slices.Clone(a.identities) }

// Issued reports whether name is an issued identity that is not revoked.
func (a *Authority) Issued(name string) bool {
	for _, id := range a.identities {
		if id.Name == name && id.Revoked.IsZero() {
			return true
		}
	}
	return false
}

// Issue issues a new identity name with a worker's permissions and returns its NATS
// credentials file (the user JWT and the user's seed): what "worker --creds FILE" reads.
// It refuses a name already issued (revoked or not: a name stays one worker's history)
// and a reserved one.
func (a *Authority) Issue(name string) ([]byte, error) {
	if !ValidIdentity(name) {
		return nil, fmt.Errorf("identity name must be 1 to 64 letters, digits, '-' or '_', got %q", name)
	}
	if slices.Contains(reservedNames, strings.ToLower(name)) {
		return nil, fmt.Errorf("identity name %q is reserved; pick another", name)
	}
	if err := a.reload(); err != nil {
		return nil, err
	}
	for _, id := range a.identities {
		if id.Name == name {
			return nil, fmt.Errorf("identity %q was issued on %s already; pick another name (a name keeps one worker's history)", name, id.Issued.Format(time.DateOnly))
		}
	}
	creds, key, err := a.user(name, WorkerPermissions(name))
	if err != nil {
		return nil, err
	}
	a.identities = append(a.identities, IssuedIdentity{Name: name, Key: key, Issued: time.Now().UTC().Truncate(time.Second)})
	if err := a.saveIdentities(); err != nil {
		return nil, err
	}
	return creds, nil
}

// Revoke revokes every credential issued to name: the account JWT, signed anew, lists
// them as revoked. A running server learns it from [Authority.Push].
func (a *Authority) Revoke(name string) error {
	if err := a.reload(); err != nil {
		return err
	}
	found := false
	now := time.Now().UTC()
	for i, id := range a.identities {
		if id.Name == name {
			found = true
			if id.Revoked.IsZero() {
				a.identities[i].Revoked = now
			}
		}
	}
	if !found {
		return fmt.Errorf("no identity %q was issued (see \"chesspuzzles worker list\")", name)
	}
	if err := a.saveIdentities(); err != nil {
		return err
	}
	return a.reload()
}

func (a *Authority) saveIdentities() error {
	data, _ := json.MarshalIndent(a.identities, "", "  ")
	return writePrivate(filepath.Join(a.dir, IdentitiesFile), append(data, '\n'), false)
}

// user signs a new user of the account named name with permissions p (every right if nil)
// and returns its credentials file and public key.
func (a *Authority) user(name string, p *server.Permissions) (creds []byte, key string, err error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, "", err
	}
	key, _ = kp.PublicKey()
	uc := jwt.NewUserClaims(key)
	uc.Name = name
	uc.IssuerAccount = ""
	if p != nil {
		uc.Pub.Allow.Add(p.Publish.Allow...)
		uc.Sub.Allow.Add(p.Subscribe.Allow...)
	}
	token, err := uc.Encode(a.account)
	if err != nil {
		return nil, "", err
	}
	seed, _ := kp.Seed()
	creds, err = jwt.FormatUserConfig(token, seed)
	return creds, key, err
}

// CoordinatorCreds returns credentials of a new user with every right in the account: the
// coordinator's, made afresh at each start and never written down.
func (a *Authority) CoordinatorCreds() ([]byte, error) {
	creds, _, err := a.user("coordinator", nil)
	return creds, err
}

// LocalCreds returns credentials of the coordinator's own local worker ("queens count
// --workers K"), identity "local", made afresh at each start.
func (a *Authority) LocalCreds() ([]byte, error) {
	creds, _, err := a.user("local", WorkerPermissions("local"))
	return creds, err
}

// configure makes the server options o trust the authority's operator and know its two
// accounts.
func (a *Authority) configure(o *server.Options) error {
	r := &server.MemAccResolver{}
	if err := r.Store(a.accountPub, a.accountJWT); err != nil {
		return err
	}
	if err := r.Store(a.systemPub, a.systemJWT); err != nil {
		return err
	}
	o.TrustedOperators = []*jwt.OperatorClaims{a.operatorClaims}
	o.AccountResolver = r
	o.SystemAccount = a.systemPub
	return nil
}

// ServerConfig returns a nats-server configuration block that makes an operator's own
// server trust this authority (operator, system account, memory resolver with both
// accounts), for "queens count --nats URL" with a cluster of one's own.
func (a *Authority) ServerConfig() string {
	return fmt.Sprintf("operator: %s\nsystem_account: %s\nresolver: MEMORY\nresolver_preload: {\n  %s: %s\n  %s: %s\n}\n",
		a.operatorJWT, a.systemPub, a.accountPub, a.accountJWT, a.systemPub, a.systemJWT)
}

// Push sends the account JWT (with its revocations) to the running server at url, as the
// system account, and waits for the server to take it. The server closes the
// connections of revoked users.
func (a *Authority) Push(ctx context.Context, url string) error {
	creds, _, err := a.sysUser()
	if err != nil {
		return err
	}
	token, seed, err := splitCreds(creds)
	if err != nil {
		return err
	}
	nc, err := nats.Connect(url, nats.UserJWTAndSeed(token, seed), nats.Timeout(DefaultConnectTimeout))
	if err != nil {
		return fmt.Errorf("connecting to %s as the system account: %w", url, err)
	}
	defer nc.Close()
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pushClaims(rctx, nc, a.accountPub, a.accountJWT); err != nil {
		return fmt.Errorf("pushing the account to %s: %w", url, err)
	}
	return nil
}

// pushClaims sends the account JWT token of account pub to the server nc is connected to
// as a system account user, and returns the server's refusal, if any.
func pushClaims(ctx context.Context, nc *nats.Conn, pub, token string) error {
	m, err := nc.RequestWithContext(ctx, "$SYS.REQ.ACCOUNT."+pub+".CLAIMS.UPDATE", []byte(token))
	if err != nil {
		return err
	}
	var reply struct {
		Error *struct {
			Description string `json:"description"`
		} `json:"error"`
	}
	if json.Unmarshal(m.Data, &reply) == nil && reply.Error != nil {
		return errors.New(reply.Error.Description)
	}
	return nil
}

// sysUser signs a user of the system account.
func (a *Authority) sysUser() ([]byte, string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, "", err
	}
	key, _ := kp.PublicKey()
	uc := jwt.NewUserClaims(key)
	uc.Name = "system"
	token, err := uc.Encode(a.system)
	if err != nil {
		return nil, "", err
	}
	seed, _ := kp.Seed()
	creds, err := jwt.FormatUserConfig(token, seed)
	return creds, key, err
}

// splitCreds returns the JWT and the seed of a credentials file.
func splitCreds(creds []byte) (token, seed string, err error) {
	token, err = jwt.ParseDecoratedJWT(creds)
	if err != nil {
		return "", "", err
	}
	kp, err := jwt.ParseDecoratedNKey(creds)
	if err != nil {
		return "", "", err
	}
	s, err := kp.Seed()
	return token, string(s), err
}

// CredsIdentity returns the identity (the user's name) of a NATS credentials file, and
// checks that it is a user credential.
func CredsIdentity(creds []byte) (string, error) {
	token, err := jwt.ParseDecoratedJWT(creds)
	if err != nil {
		return "", fmt.Errorf("not a NATS credentials file: %v", err)
	}
	uc, err := jwt.DecodeUserClaims(token)
	if err != nil {
		return "", fmt.Errorf("not a NATS credentials file: %v", err)
	}
	if !ValidIdentity(uc.Name) {
		return "", fmt.Errorf("the credentials name user %q, which is no worker identity", uc.Name)
	}
	return uc.Name, nil
}

// readPrivate reads a file that only its owner may read or write.
func readPrivate(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%s can be read or written by other users (mode %04o); make it the owner's only: chmod 600 %s", path, perm, path)
	}
	return os.ReadFile(path)
}

// writePrivate writes data to path (mode 0600) whole or not at all: under another name,
// synced, then renamed into place, or with excl linked into place, failing with
// fs.ErrExist if path exists.
func writePrivate(path string, data []byte, excl bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".new*") // mode 0600
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if excl {
			err = os.Link(tmp.Name(), path)
		} else {
			err = os.Rename(tmp.Name(), path)
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
