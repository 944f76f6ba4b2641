// Package cpuid tells which instructions of the processor the counting kernels may use.
// Both methods of queens/count read it, so that the CPUID instruction is asked once and in
// one place. Reading a variable costs nothing; they are set at start-up by one CPUID each.
package cpuid
