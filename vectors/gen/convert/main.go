// Command convert runs go-cty's convert package over the table of cases in cases.go
// (and refined.go) and writes vectors/convert/gocty.json: for each case the input
// value, the wanted type, what convert.Convert returned (the value as MessagePack and
// JSON, and its type) or its error (message and path), whether GetConversion and
// GetConversionUnsafe have a conversion, and what msgpack.Marshal and json.Marshal do
// with the input and the wanted type (they convert first). Unify cases record
// convert.Unify and convert.UnifyUnsafe. It is a development tool: the Rust tests read
// the file and never need Go.
//
// Build and run in GOPATH mode from this directory. The vectors are made with go-cty
// 1.16.4, whose convert package is that of 1.18.1 (the newest at the time of writing)
// but for the spelling of interface{}; 1.16.4 still builds with Debian's Go 1.19. It
// needs github.com/vmihailenco/msgpack/v5 (v5.3.5) and github.com/vmihailenco/tagparser/v2
// (v2.0.0) beside it, and go-textseg v15 (Debian's v13 serves: convert does not
// segment text):
//
//	G=/tmp/gocty-1.16.4
//	git clone -q --depth 1 -b v1.16.4 https://github.com/zclconf/go-cty $G/src/github.com/zclconf/go-cty
//	git clone -q --depth 1 -b v5.3.5 https://github.com/vmihailenco/msgpack $G/src/github.com/vmihailenco/msgpack/v5
//	git clone -q --depth 1 -b v2.0.0 https://github.com/vmihailenco/tagparser $G/src/github.com/vmihailenco/tagparser/v2
//	mkdir -p $G/src/github.com/apparentlymart/go-textseg
//	ln -s /usr/share/gocode/src/github.com/apparentlymart/go-textseg $G/src/github.com/apparentlymart/go-textseg/v15
//	GOPATH=$G:/usr/share/gocode GO111MODULE=off go run -tags refinements . -gocty 1.16.4 > ../../convert/gocty.json
//
// Debian's go-cty 1.12.1 (golang-github-zclconf-go-cty-dev) predates refinements; it
// runs every case but those of refined.go:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go run . -gocty 1.12.1 > /tmp/convert-1.12.1.json
//
// and compare.py beside this file lists where its results differ from the committed
// file's.
//
// Each case is converted eight times and must give the same result each time: go-cty
// iterates Go maps in places (object attribute types for unification, the attributes
// MismatchMessage looks at), and a case whose result depends on that order is refused
// rather than recorded.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

// A conversion case: convert In to To.
type convCase struct {
	name string
	in   cty.Value
	to   cty.Type
}

// A unification case.
type unifyCase struct {
	name  string
	types []cty.Type
}

type outCase struct {
	Name         string          `json:"name"`
	Input        string          `json:"input"`
	From         json.RawMessage `json:"from"`
	To           json.RawMessage `json:"to"`
	Value        string          `json:"value"`
	ValueDynamic string          `json:"value_dynamic"`
	Safe         bool            `json:"safe"`
	Unsafe       bool            `json:"unsafe"`
	Output       string          `json:"output,omitempty"`
	Want         string          `json:"want,omitempty"`
	WantJSON     *string         `json:"want_json,omitempty"`
	WantType     json.RawMessage `json:"want_type,omitempty"`
	Error        *string         `json:"error,omitempty"`
	ErrorPath    *string         `json:"error_path,omitempty"`
	Panic        *string         `json:"panic,omitempty"`
	Marshal      *marshalOut     `json:"marshal"`
	MarshalJSON  *marshalOut     `json:"marshal_json"`
}

type marshalOut struct {
	Out       *string `json:"out,omitempty"`
	Error     *string `json:"error,omitempty"`
	ErrorPath *string `json:"error_path,omitempty"`
}

type outUnify struct {
	Name   string            `json:"name"`
	Types  []json.RawMessage `json:"types"`
	Safe   json.RawMessage   `json:"unify"`
	Unsafe json.RawMessage   `json:"unify_unsafe"`
}

type outFile struct {
	Description string     `json:"description"`
	Generator   string     `json:"generator"`
	Cases       []outCase  `json:"cases"`
	Unify       []outUnify `json:"unify"`
}

func str(s string) *string { return &s }

func typeJSON(t cty.Type) json.RawMessage {
	b, err := ctyjson.MarshalType(t)
	if err != nil {
		panic(err)
	}
	return b
}

// formatPath prints a path as ctywire prints paths: .name, ["key"], [0].
func formatPath(p cty.Path) string {
	var b strings.Builder
	for _, step := range p {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			k := s.Key
			// As Terraform's FormatCtyPath prints a key (a set element's key is
			// the element itself).
			switch {
			case k.IsNull():
				b.WriteString("[null]")
			case !k.IsKnown():
				b.WriteString("[(not yet known)]")
			case k.Type() == cty.String:
				b.WriteString("[" + strconv.Quote(k.AsString()) + "]")
			case k.Type() == cty.Number:
				b.WriteString("[" + k.AsBigFloat().Text('g', -1) + "]")
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}

// splitError gives an error's message and its path ("" for none).
func splitError(err error) (string, string) {
	if pe, ok := err.(cty.PathError); ok {
		return pe.Error(), formatPath(pe.Path)
	}
	return err.Error(), ""
}

// attempt runs f, turning a panic into an error text.
func attempt(f func() (cty.Value, error)) (v cty.Value, err error, panicked *string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = str(fmt.Sprint(r))
		}
	}()
	v, err = f()
	return
}

func marshalBoth(v cty.Value, ty cty.Type) (*marshalOut, *marshalOut) {
	mp := &marshalOut{}
	js := &marshalOut{}
	func() {
		defer func() {
			if r := recover(); r != nil {
				mp.Error = str(fmt.Sprintf("panic: %v", r))
			}
		}()
		if b, err := msgpack.Marshal(v, ty); err != nil {
			m, p := splitError(err)
			mp.Error, mp.ErrorPath = &m, &p
		} else {
			mp.Out = str(hex.EncodeToString(b))
		}
	}()
	func() {
		defer func() {
			if r := recover(); r != nil {
				js.Error = str(fmt.Sprintf("panic: %v", r))
			}
		}()
		if b, err := ctyjson.Marshal(v, ty); err != nil {
			m, p := splitError(err)
			js.Error, js.ErrorPath = &m, &p
		} else {
			js.Out = str(string(b))
		}
	}()
	return mp, js
}

func mustMsgpack(v cty.Value, ty cty.Type) string {
	b, err := msgpack.Marshal(v, ty)
	if err != nil {
		m, p := splitError(err)
		panic(fmt.Sprintf("marshal %#v as %#v: %s: %s", v, ty, p, m))
	}
	return hex.EncodeToString(b)
}

// checkInput makes sure a case's input survives MessagePack: the Rust test reads it from
// there, so converting the input read back must give what converting the input gives (a
// negative zero, for one, is written as the integer 0, and a float64 integer beyond 2^63
// as decimal text).
func checkInput(c convCase, want outCase) {
	result := func(o outCase) string {
		o.Name, o.Input, o.From, o.Value, o.ValueDynamic, o.Output = "", "", nil, "", "", ""
		b, _ := json.Marshal(o)
		return string(b)
	}
	for _, ty := range []cty.Type{c.in.Type(), cty.DynamicPseudoType} {
		b, err := msgpack.Marshal(c.in, ty)
		if err != nil {
			panic(fmt.Sprintf("case %s: %s", c.name, err))
		}
		back, err := msgpack.Unmarshal(b, ty)
		if err != nil {
			panic(fmt.Sprintf("case %s: %s", c.name, err))
		}
		if again := runCase(convCase{c.name, back, c.to}); result(again) != result(want) {
			panic(fmt.Sprintf("case %s: the input read back from MessagePack converts differently:\n%s\n%s", c.name, result(want), result(again)))
		}
	}
}

// runCase converts once and describes the result.
func runCase(c convCase) outCase {
	out := outCase{
		Name:         c.name,
		Input:        fmt.Sprintf("%#v", c.in),
		From:         typeJSON(c.in.Type()),
		To:           typeJSON(c.to),
		Value:        mustMsgpack(c.in, c.in.Type()),
		ValueDynamic: mustMsgpack(c.in, cty.DynamicPseudoType),
		Safe:         convert.GetConversion(c.in.Type(), c.to) != nil,
		Unsafe:       convert.GetConversionUnsafe(c.in.Type(), c.to) != nil,
	}
	wire := c.to.WithoutOptionalAttributesDeep()
	got, err, panicked := attempt(func() (cty.Value, error) { return convert.Convert(c.in, c.to) })
	switch {
	case panicked != nil:
		out.Panic = panicked
	case err != nil:
		m, p := splitError(err)
		out.Error, out.ErrorPath = &m, &p
	default:
		// go-cty 1.12.1 can build a value of an invalid type (see convert's commit
		// 864b88d), which panics when printed or marshalled.
		func() {
			defer func() {
				if r := recover(); r != nil {
					out = outCase{Name: out.Name, Input: out.Input, From: out.From, To: out.To,
						Value: out.Value, ValueDynamic: out.ValueDynamic, Safe: out.Safe,
						Unsafe: out.Unsafe, Panic: str(fmt.Sprintf("using the result: %v", r))}
				}
			}()
			out.Output = fmt.Sprintf("%#v", got)
			out.WantType = typeJSON(got.Type())
			out.Want = mustMsgpack(got, wire)
			if got.IsWhollyKnown() {
				if b, err := ctyjson.Marshal(got, wire); err == nil {
					out.WantJSON = str(string(b))
				}
			}
		}()
	}
	out.Marshal, out.MarshalJSON = marshalBoth(c.in, wire)
	return out
}

func unifyJSON(t cty.Type) json.RawMessage {
	if t == cty.NilType {
		return json.RawMessage("null")
	}
	return typeJSON(t)
}

func main() {
	version := flag.String("gocty", "", "the version of go-cty on GOPATH, for the provenance line")
	flag.Parse()
	if *version == "" {
		fmt.Fprintln(os.Stderr, "give -gocty VERSION (the go-cty on GOPATH)")
		os.Exit(2)
	}
	cases := append(commonCases(), refinedCases()...)
	file := outFile{
		Description: "go-cty's convert package (Convert, GetConversion, GetConversionUnsafe, Unify, UnifyUnsafe) and the conversion msgpack.Marshal and json.Marshal do first, over the table of vectors/gen/convert. Values are MessagePack hex typed by `from` (`value`), by dynamic (`value_dynamic`) and by `to` without its optional markers (`want`, `marshal.out`); `input` and `output` are go-cty's Go syntax for the values.",
		Generator:   fmt.Sprintf("vectors/gen/convert/main.go: go-cty %s, %s", *version, runtime.Version()),
	}
	names := map[string]bool{}
	failed := false
	for _, c := range cases {
		if names[c.name] {
			fmt.Fprintf(os.Stderr, "duplicate case name %s\n", c.name)
			failed = true
		}
		names[c.name] = true
		first := runCase(c)
		checkInput(c, first)
		want, _ := json.Marshal(first)
		for i := 0; i < 7; i++ {
			again, _ := json.Marshal(runCase(c))
			if !bytes.Equal(want, again) {
				fmt.Fprintf(os.Stderr, "case %s: the result depends on Go's map order:\n%s\n%s\n", c.name, want, again)
				failed = true
				break
			}
		}
		file.Cases = append(file.Cases, first)
	}
	for _, u := range unifyCases() {
		if names[u.name] {
			fmt.Fprintf(os.Stderr, "duplicate case name %s\n", u.name)
			failed = true
		}
		names[u.name] = true
		var o outUnify
		for i := 0; i < 8; i++ {
			safe, _ := convert.Unify(u.types)
			unsafe, _ := convert.UnifyUnsafe(u.types)
			next := outUnify{Name: u.name, Safe: unifyJSON(safe), Unsafe: unifyJSON(unsafe)}
			for _, t := range u.types {
				next.Types = append(next.Types, typeJSON(t))
			}
			if i > 0 && (!bytes.Equal(o.Safe, next.Safe) || !bytes.Equal(o.Unsafe, next.Unsafe)) {
				fmt.Fprintf(os.Stderr, "unify case %s: the result depends on Go's map order\n", u.name)
				failed = true
			}
			o = next
		}
		if o.Types == nil {
			o.Types = []json.RawMessage{}
		}
		file.Unify = append(file.Unify, o)
	}
	if failed {
		os.Exit(1)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(file); err != nil {
		panic(err)
	}
	os.Stdout.Write(buf.Bytes())
}
