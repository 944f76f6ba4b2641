package cluster

import (
	"context"
	"encoding/json"
	"time"
)

// lingerMax bounds how long a finished run keeps answering the workers that worked for
// it, so that each hears that the job is done (Assignment.Finished) before the server
// goes (an embedded one goes with its coordinator): an idle worker asks every 2 seconds at
// most, a busy one as soon as it handed its last result in.
const lingerMax = 2500 * time.Millisecond

// lingerAfter is how long a finished run goes on answering once every worker was told:
// the other cores of a worker ask a moment after the first (each of a worker's cores asks
// on its own), and would otherwise find no coordinator and say so.
const lingerAfter = 300 * time.Millisecond

// linger answers, after the job is finished, the requests of the identities whose
// workers (of this build: they name their instance) held a lease in this run and spoke
// within lingerMax (not a worker killed long ago), each with Finished, until every one of
// them was told and lingerAfter more passed, or lingerMax; results that still come are
// answered that the job is finished. A run in which no identity held a lease (a finished
// job counted again) does not wait at all.
func (r *run) linger(ctx context.Context) {
	told := map[string]bool{}
	waits := map[string]bool{}
	for user := range r.d.worked {
		if time.Since(r.d.seen[user]) < lingerMax {
			waits[user] = true
		}
	}
	left := len(waits)
	if left == 0 {
		return
	}
	fin, _ := json.Marshal(Assignment{Wait: 1, Finished: r.job, Messages: MessageVersion})
	done, _ := json.Marshal(Receipt{Refused: "the job is finished"})
	t := time.NewTimer(lingerMax)
	defer t.Stop()
	var after <-chan time.Time // once every one was told
	for {
		if left == 0 && after == nil {
			after = time.After(lingerAfter)
		}
		select {
		case <-after:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			return
		case m := <-r.wants:
			user := subjectUser(m.Subject)
			if ownReply(user, m.Reply) {
				_ = m.Respond(fin)
			}
			if waits[user] && !told[user] {
				told[user] = true
				left--
			}
		case m := <-r.handed:
			if ownReply(subjectUser(m.Subject), m.Reply) {
				_ = m.Respond(done)
			}
		case <-r.beats:
		}
	}
}
