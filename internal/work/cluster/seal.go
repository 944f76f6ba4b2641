package cluster

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// A Sealer signs and checks what only the coordinator may write: the results it accepted,
// the job records, and the nonces of its assignments. Its key is derived from the
// coordinator's secret, so that a coordinator started again on the same state directory
// (or "queens status" on that machine) checks what an earlier one sealed.
// A Sealer is safe for concurrent use.
type Sealer struct {
	key  []byte
	macs sync.Pool // of hash.Hash: HMAC-SHA-256 keyed with key, Reset
}

// NewSealer returns the sealer of the coordinator whose secret is admin.
func NewSealer(admin string) *Sealer {
	m := hmac.New(sha256.New, []byte(admin))
	m.Write([]byte("chesspuzzles seal key"))
	return &Sealer{key: m.Sum(nil)}
}

// Seal returns the HMAC-SHA-256 of the parts (each length-prefixed: "<length>:<part>"), in
// hex. It costs a pass of SHA-256 over the parts, twice two blocks: the HMAC is reused.
func (s *Sealer) Seal(parts ...string) string {
	m, _ := s.macs.Get().(hash.Hash)
	if m == nil {
		m = hmac.New(sha256.New, s.key)
	}
	n := 0
	for _, p := range parts {
		n += len(p) + 21
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		b = strconv.AppendInt(b, int64(len(p)), 10)
		b = append(b, ':')
		b = append(b, p...)
	}
	m.Write(b)
	var sum [sha256.Size]byte
	seal := hex.EncodeToString(m.Sum(sum[:0]))
	m.Reset()
	s.macs.Put(m)
	return seal
}

// Check reports whether seal is Seal(parts...).
func (s *Sealer) Check(seal string, parts ...string) bool {
	return hmac.Equal([]byte(seal), []byte(s.Seal(parts...)))
}

// sealed is the value the coordinator stores in a bucket: a JSON document (a Result or a
// JobRecord) and its seal (Sealer.Seal of the key and the document), so that whoever
// reads it back with the coordinator's secret can tell it is what the coordinator wrote.
type sealed struct {
	Seal string          `json:"seal"`
	Doc  json.RawMessage `json:"doc"`
}

// sealValue returns the stored form of v under key: what json.Marshal gives of a sealed,
// written directly into one buffer (the document is compact already; a Result's is
// written by its appendJSON), the seal filled in once the document is there.
func sealValue(s *Sealer, key string, v any) ([]byte, error) {
	const head, mid = `{"seal":"`, `","doc":`
	b := make([]byte, 0, 512)
	b = append(b, head...)
	b = append(b, make([]byte, 2*sha256.Size)...) // the seal's hex, below
	b = append(b, mid...)
	start := len(b)
	var err error
	if r, ok := v.(*Result); ok {
		b, err = r.appendJSON(b)
	} else {
		var doc []byte
		doc, err = json.Marshal(v)
		b = append(b, doc...)
	}
	if err != nil {
		return nil, err
	}
	copy(b[len(head):], s.Seal("value", key, string(b[start:])))
	return append(b, '}'), nil
}

// errUnsealed is what openValue returns for a value whose seal is not the coordinator's.
var errUnsealed = errors.New("not sealed by this job's coordinator (written by another client, or by a coordinator with another secret)")

// openValue decodes a stored value into v. With s nil it does not check the seal, and
// says that the value is unchecked by returning checked false.
func openValue(s *Sealer, key string, data []byte, v any) (checked bool, err error) {
	var env sealed
	if err := json.Unmarshal(data, &env); err != nil || len(env.Doc) == 0 {
		return false, errUnsealed
	}
	if s != nil && !s.Check(env.Seal, "value", key, string(env.Doc)) {
		return false, errUnsealed
	}
	if err := json.Unmarshal(env.Doc, v); err != nil {
		return false, fmt.Errorf("value is not a %T: %v", v, err)
	}
	return s != nil, nil
}

// nonce returns the nonce of the serial-th assignment of a run: who it went to, which
// task, first or second computation, sealed, so that nobody can guess it. A result is
// accepted only for a nonce of a live lease of this run (dispatch.accept): a nonce of an
// earlier run, or of a lease that lapsed, is refused.
func nonce(s *Sealer, user, job string, id int, verify bool, serial string) string {
	kind := "f"
	if verify {
		kind = "v"
	}
	return kind + serial + "." + s.Seal("nonce", user, job, strconv.Itoa(id), kind, serial)[:32]
}

// putSealed stores v sealed under key.
func putSealed(ctx context.Context, kv jetstream.KeyValue, s *Sealer, key string, v any) error {
	data, err := sealValue(s, key, v)
	if err != nil {
		return err
	}
	if _, err := kv.Put(ctx, key, data); err != nil {
		return fmt.Errorf("storing %s: %w", key, err)
	}
	return nil
}
