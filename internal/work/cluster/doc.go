// Package cluster runs a count plan of any kind (work.Plan: a queens count, a knight's-tour
// count, or the next puzzle's) on many machines through NATS.
//
// A coordinator ([Coordinator.Run]) hands the tasks of the plan out, in the plan's order
// (for queens, costliest first), to workers ([Worker.Run]) on any number of machines that
// ask for them; each worker makes the plan again from its job id (work.OpenJob, by the
// kind of the id: a third kind of count registers its function with work.RegisterKind and
// needs nothing else here), computes its tasks on all its cores and hands each result in:
// its count in decimal, of any size, and the plan's named counters. The coordinator checks
// it, stores it in a stream under its job and task id, and sums the results once per task
// id as big integers, so that a task computed twice never changes the total.
//
// Usage, in one process (the command line runs each part in its own):
//
//	auth, _ := cluster.LoadOrCreateAuthority("state")
//	srv, _ := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:4222", StoreDir: "state", Authority: auth})
//	defer srv.Shutdown()
//	creds, _ := auth.CoordinatorCreds()
//	nc, _ := cluster.Connect(ctx, cluster.ConnectOptions{URL: srv.URL(), UserCreds: creds})
//	w1, _ := auth.Issue("w1") // "chesspuzzles worker add w1": the file w1.creds
//	wc, id, _ := cluster.ConnectWorker(ctx, cluster.ConnectOptions{URL: srv.URL(), UserCreds: w1})
//	go (&cluster.Worker{Conn: wc, Identity: id, Name: "local"}).Run(ctx) // and on other machines
//	qp, _ := queens.NewPlan(20, count.MethodFrames, 0)
//	plan := work.Queens(qp)
//	out, stats, err := (&cluster.Coordinator{Conn: nc, StateDir: "state"}).Run(ctx, plan)
//	… plan.Counts(out.Total, out.Sums)
//
// Names. A job is one count: its id is the plan's (work.Plan.Job), which carries the puzzle,
// the board and the plan version ("q20v1", [JobID]; "k8x8-open-ends-v1"), so that results
// from a build that cuts the plan differently can never be mistaken for this build's. On
// the server:
//
//   - subjects chesspuzzles.want.<identity> (a worker asks for a task; the coordinators
//     answer as one queue group), chesspuzzles.beat.<identity> (its heartbeat, and tasks it
//     hands back), chesspuzzles.result.<identity>.<job> (its results, answered with a
//     [Receipt]);
//   - stream CHESSPUZZLES_RESULTS ([ResultsStream]), a message a result on subject
//     chesspuzzles.results.<job>.<task id / 4096>, its key <job>.<task id> (".v" appended
//     for a second computation) in header Chesspuzzles-Key, value a JSON [Result] sealed by
//     the coordinator under that key (not a key-value bucket: see results.go);
//   - key-value bucket chesspuzzles_jobs, key <job>, value a JSON [JobRecord], sealed, for
//     status.
//
// Identities and trust. Every worker has an identity the operator issued (see
// identity.go and [Authority]: a NATS user of the coordinator's account, its JWT signed by
// the account key in the coordinator's state directory), which the server enforces
// ([WorkerPermissions]): it may publish only on its own subjects and receive only on its
// own inbox, and has no right to JetStream at all; only the coordinator reads and writes
// the buckets. A shared token lets nobody in. The identity of a message is the subject's
// name token, which only that user may publish on. Each assignment is a lease with a
// nonce: a result is accepted only from the identity that holds the task's live lease in
// this run, and refused with a logged reason otherwise (a replay, a late result, a result
// of an earlier run or of a task never leased to it). With Coordinator.Verify, a share of
// the tasks chosen at random is computed a second time, by an identity the coordinator
// picks at random among the live ones other than the first's (or by the coordinator itself
// when there is none); with Coordinator.Replicas 2 every task is; with Replicas 3 every
// task is computed by three identities, the third drawn too, and counts only when all
// three agree (replicas.go). The default where no count is published is two identities a
// task, and a third for each task whose second is drawn while fewer than
// [FewIdentities] identities have been seen in the run. A difference is settled by the coordinator computing the task
// itself: an identity shown wrong is quarantined and every result of it computed again by
// others, so that no identity can stop a count or have another's result deleted. A total
// refused against a published count has every task computed once computed again; one
// still refused names the identities ([RefusedError]). docs/distributed.md says what this
// protects and what it does not.
//
// Guarantees. A worker sends a heartbeat for each assignment every third of the ack
// deadline while it computes, so a live worker keeps its task however long it takes; the
// task of a worker silent for the deadline is assigned again. A result whose job or task
// does not match its assignment, whose counters are not those the plan names, or which the
// plan's Check refuses, is refused and its task assigned again. Started
// again against the same server (the same --state directory for the embedded one) a
// coordinator takes what it had counted from its snapshot (Coordinator.StateDir: the
// tally, the verifier's state and the results stream's revision they were read up to,
// checked against the plan and the bucket), reads only the results stored after that
// revision (all of them when it has no snapshot it can trust), trusting only values its
// secret sealed, and assigns only the tasks that have no result; a result of its earlier
// run's assignments is refused, its task assigned again. Clients reconnect for ever after
// losing their connection.
//
// Size. A plan of millions of tasks (the join's plan of N = 28 has 1.7·10⁷) is held
// compactly by the coordinator (the join's plan about 24 bytes a task), the tally holds a
// bit a task and the verifier a keyed 8-byte fingerprint of each first result and a 4-byte
// identity, whatever the share verified (whole results only for second computations that
// came before their first), so the coordinator needs about 36 bytes a task besides the
// server: about 600 MiB of Go heap at N = 28 with every task computed twice; its snapshot
// takes about 12 bytes a task on disk, streamed. A worker never builds the fine plan:
// each assignment carries its task, which the worker checks against the plan's rules
// (work.TaskChecker) and names by its digest in its result.
//
// Messages and state of older builds. A worker and a coordinator of different message
// versions ([MessageVersion]) refuse each other in one line. A state directory written by
// the build before version 3 (queens and knight results as queens results, a snapshot of
// format 3) still loads: its snapshot is ignored and its stored results are read and made
// the plan's (legacy.go).
//
// The embedded server ([StartServer]) is nats-server run inside the process with JetStream
// on a file store, so a single binary is all a cluster needs; any NATS server with
// JetStream works as well, with the permissions docs/distributed.md gives.
package cluster
