package queens

import "github.com/chesspuzzles/chesspuzzles/board"

// CheckRecord is a [Report] as machines read it: the JSON object of "queens check --json"
// and of the web API's GET /api/queens/check, one type for both so that they cannot drift
// apart. Squares are named as [board.Size.Name] names them (algebraic where the board has
// it) and lines by [Line.String].
//
// AttacksTotal counts every attacking pair; Attacks lists the first of them from the top
// (all of them unless the checker held some back, as --max-attacks does), and is [] rather
// than null when empty. Rows, Columns, Diagonals and AntiDiagonals are the Report's
// per-line counts, null where the checker did not count them (boards too large to list).
type CheckRecord struct {
	N             int            `json:"n"`
	Queens        int            `json:"queens"`
	Solved        bool           `json:"solved"`
	Attacks       []AttackRecord `json:"attacks"`
	AttacksTotal  int64          `json:"attacks_total"`
	Rows          []int          `json:"rows"`
	Columns       []int          `json:"columns"`
	Diagonals     []int          `json:"diagonals"`
	AntiDiagonals []int          `json:"anti_diagonals"`
}

// AttackRecord is an [Attack] in a CheckRecord: the two queens' squares by name and the
// line they share.
type AttackRecord struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Line string `json:"line"`
}

// Record returns rep as a CheckRecord; total is the number of attacking pairs, of which
// rep.Attacks lists the first (len(rep.Attacks) when it lists them all, as [Check]'s report
// does). It takes time proportional to the pairs listed.
func (rep Report) Record(total int64) CheckRecord {
	sz := board.SquareBoard(rep.N)
	out := CheckRecord{N: rep.N, Queens: rep.Queens, Solved: rep.Solved, Attacks: make([]AttackRecord, 0, len(rep.Attacks)), AttacksTotal: total,
		Rows: rep.Rows, Columns: rep.Columns, Diagonals: rep.Diagonals, AntiDiagonals: rep.AntiDiagonals}
	for _, a := range rep.Attacks {
		out.Attacks = append(out.Attacks, AttackRecord{A: sz.Name(a.A), B: sz.Name(a.B), Line: a.Line.String()})
	}
	return out
}
