package web

import (
	"fmt"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

func fmtSscan(s string, args ...any) (int, error) { return fmt.Sscan(s, args...) }
