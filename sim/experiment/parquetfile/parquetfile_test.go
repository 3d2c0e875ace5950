package parquetfile

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/twintorus/twintorus/sim/experiment"
)

// The Parquet file holds the rows of the CSV table, cell for cell, in its order,
// whatever the order of the records.
func TestWriteMatchesCSV(t *testing.T) {
	s := experiment.NewSpec("torus:4x4")
	s.Deadlock = []string{"bubble", "vc"}
	s.Engine.Warmup, s.Engine.Measure = 200, 1000
	s.Loads = experiment.Fixed(0.1, 0.6)
	s.Seeds = 2
	res, err := experiment.Run(context.Background(), s, experiment.Options{Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	recs := append([]experiment.Record(nil), res.Records...)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })

	var table bytes.Buffer
	if err := experiment.WriteCSV(&table, recs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&table).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var pq bytes.Buffer
	if err := Write(&pq, recs); err != nil {
		t.Fatal(err)
	}
	back, err := parquet.Read[experiment.Row](bytes.NewReader(pq.Bytes()), int64(pq.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 8 || len(rows) != 9 {
		t.Fatalf("Parquet has %d rows and the CSV %d lines; want 8 records", len(back), len(rows))
	}
	for i, r := range back {
		v := reflect.ValueOf(r)
		for j := range v.NumField() {
			if got, want := fmt.Sprint(v.Field(j).Interface()), rows[i+1][j]; got != want && !sameNumber(got, want) {
				t.Errorf("Parquet row %d column %s: %s, the CSV has %s", i, rows[0][j], got, want)
			}
		}
	}
}

// sameNumber reports whether two printed numbers are equal (fmt and the CSV print
// floats differently: 1e-05 and 0.00001).
func sameNumber(a, b string) bool {
	var x, y float64
	_, errA := fmt.Sscan(a, &x)
	_, errB := fmt.Sscan(b, &y)
	return errA == nil && errB == nil && x == y
}
