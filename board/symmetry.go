package board

// Symmetry is one of the eight symmetries of a square board: the four rotations and the
// four reflections (the dihedral group D4). Apply maps a square of an n×n board to its image.
type Symmetry uint8

// The eight symmetries. Rotations turn the board clockwise as printed.
const (
	Identity      Symmetry = iota // (r, c) → (r, c)
	Rotate90                      // (r, c) → (c, n-1-r)
	Rotate180                     // (r, c) → (n-1-r, n-1-c)
	Rotate270                     // (r, c) → (n-1-c, r)
	MirrorColumns                 // left-right mirror: (r, c) → (r, n-1-c)
	MirrorRows                    // top-bottom mirror: (r, c) → (n-1-r, c)
	Transpose                     // main diagonal: (r, c) → (c, r)
	AntiTranspose                 // anti-diagonal: (r, c) → (n-1-c, n-1-r)
)

// Symmetries lists all eight symmetries, Identity first.
var Symmetries = [8]Symmetry{Identity, Rotate90, Rotate180, Rotate270, MirrorColumns, MirrorRows, Transpose, AntiTranspose}

var symmetryNames = [8]string{"identity", "rotate 90°", "rotate 180°", "rotate 270°", "mirror left-right", "mirror top-bottom", "transpose", "anti-transpose"}

// String names the symmetry, e.g. "rotate 90°".
func (s Symmetry) String() string {
	if int(s) < len(symmetryNames) {
		return symmetryNames[s]
	}
	return "symmetry?"
}

// Apply returns the image of sq under s on an n×n board.
func (s Symmetry) Apply(n int, sq Square) Square {
	r, c, m := sq.Row, sq.Col, n-1
	switch s {
	case Rotate90:
		return Square{c, m - r}
	case Rotate180:
		return Square{m - r, m - c}
	case Rotate270:
		return Square{m - c, r}
	case MirrorColumns:
		return Square{r, m - c}
	case MirrorRows:
		return Square{m - r, c}
	case Transpose:
		return Square{c, r}
	case AntiTranspose:
		return Square{m - c, m - r}
	}
	return sq
}
