//go:build !amd64 || purego

package join

// cellKernels lists cellPairs, which is cellPairsGo without assembly.
func cellKernels() []cellKernel {
	return []cellKernel{{name: "cellPairs", fits: func(int, int) bool { return true }, run: cellPairs}}
}
