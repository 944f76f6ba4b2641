package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// deployDir holds the operators' files: Kubernetes manifests, systemd units, Slurm scripts.
const deployDir = "../../deploy"

// image is the image every manifest runs.
const image = "ghcr.io/chesspuzzles/chesspuzzles:latest"

// checkArgs checks that args (without the program name) name a chesspuzzles command and
// that its flags parse, without running it: a manifest with a misspelt flag would
// otherwise fail only when deployed. Kubernetes' $(VAR) and systemd's ${VAR} are replaced
// by sample values first.
func checkArgs(t *testing.T, where string, args []string) {
	t.Helper()
	vars := regexp.MustCompile(`\$\(JOB_COMPLETION_INDEX\)|\$\{?[A-Z_]+\}?`)
	args = append([]string(nil), args...)
	for i, a := range args {
		args[i] = vars.ReplaceAllStringFunc(a, func(v string) string {
			if strings.Contains(v, "INDEX") {
				return "3"
			}
			if strings.Contains(v, "NATS") {
				return "nats://coordinator:4222"
			}
			return "/var/lib/chesspuzzles"
		})
	}
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	cmd, rest, err := root.Find(args)
	if err != nil || cmd == root || !cmd.Runnable() {
		t.Errorf("%s: %q is not a chesspuzzles command (%v)", where, args, err)
		return
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: %q: %v", where, args, err)
		return
	}
	if cmd.Args != nil {
		if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
			t.Errorf("%s: %q: %v", where, args, err)
		}
	}
}

// TestDeployKubernetes parses every manifest under deploy/kubernetes, checks the fields an
// operator relies on (the image, a non-root user, the coordinator's state volume, the
// Indexed Job), and checks each container's arguments against the command tree.
func TestDeployKubernetes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(deployDir, "kubernetes", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s/kubernetes (%v)", deployDir, err)
	}
	kinds := map[string]int{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var doc manifest
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			where := file + ": " + doc.Kind + " " + doc.Metadata.Name
			if doc.APIVersion == "" || doc.Kind == "" || doc.Metadata.Name == "" {
				t.Errorf("%s: a document without apiVersion, kind or metadata.name", file)
			}
			kinds[doc.Kind+" "+doc.Spec.CompletionMode]++
			pod := doc.Spec.Template.Spec
			if doc.Kind == "Deployment" || doc.Kind == "StatefulSet" || doc.Kind == "Job" {
				if len(pod.Containers) == 0 {
					t.Errorf("%s: no containers", where)
				}
				if sc := pod.SecurityContext; !sc.RunAsNonRoot || sc.RunAsUser != 65532 {
					t.Errorf("%s: pod runs as %+v, want runAsNonRoot and uid 65532 (the image's user)", where, sc)
				}
			}
			for _, c := range pod.Containers {
				if c.Image != image {
					t.Errorf("%s: container %s runs %q, want %q", where, c.Name, c.Image, image)
				}
				checkArgs(t, where, c.Args)
			}
			if doc.Kind == "StatefulSet" {
				if len(doc.Spec.VolumeClaimTemplates) == 0 || len(pod.Containers[0].VolumeMounts) == 0 {
					t.Errorf("%s: the coordinator needs its state volume", where)
				}
			}
		}
	}
	for _, k := range []string{"StatefulSet ", "Service ", "Deployment ", "Job Indexed", "Job "} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the manifests; have %v", k, kinds)
		}
	}
}

// manifest is the part of a Kubernetes object the test reads.
type manifest struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode       string `yaml:"completionMode"`
		VolumeClaimTemplates []any  `yaml:"volumeClaimTemplates"`
		Template             struct {
			Spec struct {
				SecurityContext struct {
					RunAsNonRoot bool `yaml:"runAsNonRoot"`
					RunAsUser    int  `yaml:"runAsUser"`
				} `yaml:"securityContext"`
				Containers []struct {
					Name         string   `yaml:"name"`
					Image        string   `yaml:"image"`
					Args         []string `yaml:"args"`
					VolumeMounts []any    `yaml:"volumeMounts"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// TestDeploySystemd reads every unit under deploy/systemd: sections and key=value lines
// only, the sections a service needs, and an ExecStart whose arguments are a chesspuzzles
// command.
func TestDeploySystemd(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(deployDir, "systemd", "*.service"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no units in %s/systemd (%v)", deployDir, err)
	}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sections := map[string]map[string]string{}
		var section string
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			s := strings.TrimSpace(sc.Text())
			switch {
			case s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, ";"):
			case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
				section = s[1 : len(s)-1]
				sections[section] = map[string]string{}
			case section != "" && strings.Contains(s, "="):
				k, v, _ := strings.Cut(s, "=")
				sections[section][strings.TrimSpace(k)] = strings.TrimSpace(v)
			default:
				t.Errorf("%s:%d: not a section, key=value or comment: %q", file, line, s)
			}
		}
		f.Close()
		for _, want := range []string{"Unit", "Service", "Install"} {
			if sections[want] == nil {
				t.Errorf("%s: no [%s] section", file, want)
			}
		}
		exec := strings.Fields(sections["Service"]["ExecStart"])
		if len(exec) < 2 || exec[0] != "/usr/local/bin/chesspuzzles" {
			t.Errorf("%s: ExecStart = %q, want /usr/local/bin/chesspuzzles and a command", file, exec)
			continue
		}
		checkArgs(t, file, exec[1:])
	}
}

// TestDeploySlurm checks the Slurm scripts' shell syntax (bash -n) and the chesspuzzles
// command they run.
func TestDeploySlurm(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(deployDir, "slurm", "*.sbatch"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in %s/slurm (%v)", deployDir, err)
	}
	for _, file := range files {
		if out, err := exec.Command("bash", "-n", file).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", file, err, out)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^exec chesspuzzles (.*)$`).FindStringSubmatch(string(data))
		if m == nil {
			t.Errorf("%s: no line \"exec chesspuzzles …\"", file)
			continue
		}
		var args []string
		for _, f := range strings.Fields(m[1]) {
			f = strings.Trim(f, `"`)
			f = strings.NewReplacer("$n", "20", "$i", "3", "$k", "32", "${SLURM_CPUS_PER_TASK:-1}", "4").Replace(f)
			args = append(args, f)
		}
		checkArgs(t, file, args)
	}
}
