package workload

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Mapping says how tasks are placed on PEs. A PE has TasksPerPE slots (cores); task
// placement fills slots.
type Mapping struct {
	// Kind is "linear" (task i in slot i: tasks i·c … i·c+c−1 share PE i with c tasks
	// per PE, as MPI's block placement) or "random" (a seeded permutation of the
	// slots: every replication draws its own, as the papers' 30 random mappings).
	Kind       string `yaml:"kind" json:"kind"`
	TasksPerPE int    `yaml:"tasks_per_pe" json:"tasks_per_pe"`
}

// Mapping kinds.
const (
	Linear = "linear"
	Random = "random"
)

// MaxTasksPerPE bounds the tasks one PE runs.
const MaxTasksPerPE = 1024

// ParseMapping reads "linear" or "random", optionally with tasks per PE after a
// slash: "random/2" places two tasks on each PE. The zero Mapping is linear with one
// task per PE.
func ParseMapping(s string) (Mapping, error) {
	kind, per, hasPer := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "/")
	m := Mapping{Kind: strings.TrimSpace(kind), TasksPerPE: 1}
	if hasPer {
		n := 0
		if _, err := fmt.Sscan(strings.TrimSpace(per), &n); err != nil || fmt.Sprint(n) != strings.TrimSpace(per) {
			return Mapping{}, fmt.Errorf("mapping %q: tasks per PE %q: accepted are whole numbers 1 to %d, e.g. random/2", s, per, MaxTasksPerPE)
		}
		m.TasksPerPE = n
	}
	if err := m.check(); err != nil {
		return Mapping{}, fmt.Errorf("mapping %q: %w", s, err)
	}
	return m, nil
}

func (m Mapping) check() error {
	if m.Kind != Linear && m.Kind != Random {
		return fmt.Errorf("accepted are linear and random, optionally with tasks per PE (random/2)")
	}
	if m.TasksPerPE < 1 || m.TasksPerPE > MaxTasksPerPE {
		return fmt.Errorf("%d tasks per PE: accepted are 1 to %d", m.TasksPerPE, MaxTasksPerPE)
	}
	return nil
}

// normal fills the zero value's fields.
func (m Mapping) normal() Mapping {
	if m.Kind == "" {
		m.Kind = Linear
	}
	if m.TasksPerPE == 0 {
		m.TasksPerPE = 1
	}
	return m
}

// String is "linear" or "random", with "/c" for c tasks per PE beyond one.
func (m Mapping) String() string {
	m = m.normal()
	if m.TasksPerPE == 1 {
		return m.Kind
	}
	return fmt.Sprintf("%s/%d", m.Kind, m.TasksPerPE)
}

// MarshalText writes the mapping string.
func (m Mapping) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mapping string.
func (m *Mapping) UnmarshalText(b []byte) error {
	v, err := ParseMapping(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Place maps each of tasks tasks to a PE of a network of pes PEs, drawing a random
// mapping from seed; it refuses more tasks than slots.
func (m Mapping) Place(tasks, pes int, seed uint64) ([]int32, error) {
	m = m.normal()
	if err := m.check(); err != nil {
		return nil, err
	}
	slots := int64(pes) * int64(m.TasksPerPE)
	if tasks < 1 || int64(tasks) > slots {
		return nil, fmt.Errorf("%d tasks do not fit %d PEs with %d task(s) per PE (%d slots)", tasks, pes, m.TasksPerPE, slots)
	}
	pe := make([]int32, tasks)
	if m.Kind == Linear {
		for t := range pe {
			pe[t] = int32(t / m.TasksPerPE)
		}
		return pe, nil
	}
	// Random: the first `tasks` entries of a uniform permutation of the slots (a
	// partial Fisher–Yates shuffle over a virtual identity array).
	rng := rand.New(rand.NewPCG(seed, 0x6d617070696e6721)) // "mapping!"
	moved := make(map[int64]int64)
	get := func(i int64) int64 {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	for t := range pe {
		j := int64(t) + rng.Int64N(slots-int64(t))
		vt, vj := get(int64(t)), get(j)
		moved[int64(t)], moved[j] = vj, vt
		pe[t] = int32(vj / int64(m.TasksPerPE))
	}
	return pe, nil
}
