// Command equality writes vectors/equality/go-cty.json: pairs of values of one type with
// what go-cty's Value.Equals and Value.RawEquals say of them, for tests/conformance/equality.rs to
// check ctywire's cty_equals and raw_equals against. It is a development tool: the Rust
// tests only read the file it writes.
//
// It needs go-cty 1.14 or later (refinements and their part in Equals arrived in 1.13;
// 1.14.4 is the version this project's bytes follow) built in GOPATH mode with Go 1.19,
// from Debian's packages golang-go, golang-github-vmihailenco-msgpack.v5-dev,
// golang-github-vmihailenco-tagparser.v2-dev, golang-golang-x-text-dev and
// golang-github-apparentlymart-go-textseg-dev, plus go-cty's own source at tag v1.14.4.
// From the repository root:
//
//	G=/tmp/gocty-1.14.4
//	mkdir -p $G/src/github.com/zclconf $G/src/github.com/apparentlymart/go-textseg
//	git clone -q --branch v1.14.4 --depth 1 <go-cty repository> $G/src/github.com/zclconf/go-cty
//	ln -s /usr/share/gocode/src/github.com/apparentlymart/go-textseg $G/src/github.com/apparentlymart/go-textseg/v15
//	GOPATH=$G:/usr/share/gocode GO111MODULE=off go run ./vectors/gen/equality > vectors/equality/go-cty.json
//
// (Debian's go-textseg is v13, whose API go-cty uses unchanged.) Each pool below holds
// values of one type; every pair (each value with itself and every later one) is a
// case, unless the two encode to the same bytes and go-cty does not call them equal both
// ways: the wire cannot tell those apart (a -0, which MessagePack writes as 0; the
// element type of an empty list at a dynamic position). go-cty's Equals visits object
// attributes and map elements in Go's map order, so each pair is compared many times;
// where the answers vary, the case lists them all.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

// How many times each pair is compared, to see every answer Go's map order gives.
const rounds = 64

type pool struct {
	name   string
	ty     cty.Type
	values []cty.Value
}

// A pool given as MessagePack hex: bytes go-cty's Marshal does not write but reads (a
// float64 -0, a fraction as a float64), kept as they are in the cases.
type wirePool struct {
	name string
	ty   cty.Type
	wire []string
}

type testCase struct {
	Name      string          `json:"name"`
	Type      json.RawMessage `json:"type"`
	A         string          `json:"a"`
	B         string          `json:"b"`
	Equals    interface{}     `json:"equals"`
	RawEquals bool            `json:"raw_equals"`
}

type file struct {
	Description string     `json:"description"`
	Source      string     `json:"source"`
	Cases       []testCase `json:"cases"`
}

func num(s string) cty.Value { return cty.MustParseNumberVal(s) }

func unknown(ty cty.Type) *cty.RefinementBuilder { return cty.UnknownVal(ty).Refine() }

func pools() []pool {
	s, n, b := cty.String, cty.Number, cty.Bool
	str := cty.StringVal
	obj := cty.Object(map[string]cty.Type{"a": s, "b": n})
	objDyn := cty.Object(map[string]cty.Type{"a": cty.DynamicPseudoType, "b": s})
	elem := cty.Object(map[string]cty.Type{"a": s})
	o := func(a, b cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"a": a, "b": b}) }
	e := func(a cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"a": a}) }
	return []pool{
		{"bool", b, []cty.Value{
			cty.NullVal(b), cty.UnknownVal(b), unknown(b).NotNull().NewValue(), cty.True, cty.False,
		}},
		{"number", n, []cty.Value{
			cty.NullVal(n), cty.UnknownVal(n), unknown(n).NotNull().NewValue(),
			unknown(n).NumberRangeInclusive(cty.NumberIntVal(1), cty.NumberIntVal(5)).NewValue(),
			unknown(n).NotNull().NumberRangeLowerBound(cty.NumberIntVal(1), false).NumberRangeUpperBound(cty.NumberIntVal(5), false).NewValue(),
			unknown(n).NumberRangeLowerBound(cty.NumberIntVal(10), true).NewValue(),
			cty.NumberIntVal(0), cty.NumberFloatVal(math.Copysign(0, -1)), cty.NumberIntVal(1), cty.NumberFloatVal(1),
			num("1.5"), cty.NumberIntVal(5), cty.NumberIntVal(10), cty.NumberFloatVal(0.1), num("0.1"),
			num("123456789012345678901234567890.5"), cty.PositiveInfinity,
		}},
		{"string", s, []cty.Value{
			cty.NullVal(s), cty.UnknownVal(s), unknown(s).NotNull().NewValue(),
			unknown(s).StringPrefix("ab").NewValue(), unknown(s).NotNull().StringPrefix("ab").NewValue(),
			str(""), str("ab"), str("abc"), str("b"), str("años"),
		}},
		{"list", cty.List(s), []cty.Value{
			cty.NullVal(cty.List(s)), cty.UnknownVal(cty.List(s)), unknown(cty.List(s)).NotNull().NewValue(),
			unknown(cty.List(s)).CollectionLengthLowerBound(1).CollectionLengthUpperBound(2).NewValue(),
			unknown(cty.List(s)).NotNull().CollectionLengthLowerBound(3).NewValue(),
			cty.ListValEmpty(s), cty.ListVal([]cty.Value{str("a")}), cty.ListVal([]cty.Value{str("a"), str("b")}),
			cty.ListVal([]cty.Value{str("b"), str("a")}), cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(s)}),
			cty.ListVal([]cty.Value{cty.UnknownVal(s), str("b")}), cty.ListVal([]cty.Value{cty.NullVal(s)}),
		}},
		{"set", cty.Set(s), []cty.Value{
			cty.NullVal(cty.Set(s)), cty.UnknownVal(cty.Set(s)),
			unknown(cty.Set(s)).NotNull().CollectionLengthUpperBound(1).NewValue(),
			unknown(cty.Set(s)).CollectionLengthLowerBound(2).NewValue(),
			cty.SetValEmpty(s), cty.SetVal([]cty.Value{str("a")}), cty.SetVal([]cty.Value{str("a"), str("b")}),
			cty.SetVal([]cty.Value{str("b")}), cty.SetVal([]cty.Value{str("a"), cty.UnknownVal(s)}),
			cty.SetVal([]cty.Value{cty.UnknownVal(s)}), cty.SetVal([]cty.Value{cty.UnknownVal(s), cty.UnknownVal(s)}),
			cty.SetVal([]cty.Value{cty.NullVal(s)}),
		}},
		{"set of objects", cty.Set(elem), []cty.Value{
			cty.NullVal(cty.Set(elem)), cty.UnknownVal(cty.Set(elem)), cty.SetValEmpty(elem),
			cty.SetVal([]cty.Value{e(str("x"))}), cty.SetVal([]cty.Value{e(str("y"))}),
			cty.SetVal([]cty.Value{e(cty.UnknownVal(s))}), cty.SetVal([]cty.Value{e(str("x")), e(str("y"))}),
			cty.SetVal([]cty.Value{e(str("x")), e(cty.UnknownVal(s))}), cty.SetVal([]cty.Value{e(cty.NullVal(s))}),
		}},
		{"set of numbers", cty.Set(n), []cty.Value{
			cty.SetVal([]cty.Value{cty.NumberIntVal(0)}), cty.SetVal([]cty.Value{cty.NumberIntVal(0), cty.NumberIntVal(1)}),
			cty.SetVal([]cty.Value{cty.NumberFloatVal(0.1)}), cty.SetVal([]cty.Value{num("0.1")}),
			cty.SetVal([]cty.Value{cty.NumberIntVal(1), cty.NumberFloatVal(2)}), cty.SetVal([]cty.Value{num("1.0"), cty.NumberIntVal(2)}),
		}},
		{"map", cty.Map(n), []cty.Value{
			cty.NullVal(cty.Map(n)), cty.UnknownVal(cty.Map(n)), cty.MapValEmpty(n),
			unknown(cty.Map(n)).NotNull().CollectionLengthLowerBound(2).NewValue(),
			cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}),
			cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)}),
			cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(n)}), cty.MapVal(map[string]cty.Value{"b": cty.NumberIntVal(1)}),
			cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(2), "b": cty.UnknownVal(n)}),
			cty.MapVal(map[string]cty.Value{"a": cty.UnknownVal(n), "b": cty.NumberIntVal(3)}),
			cty.MapVal(map[string]cty.Value{"a": cty.NullVal(n)}),
		}},
		{"object", obj, []cty.Value{
			cty.NullVal(obj), cty.UnknownVal(obj), unknown(obj).NotNull().NewValue(),
			o(str("x"), cty.NumberIntVal(1)), o(str("x"), cty.NumberIntVal(2)), o(cty.UnknownVal(s), cty.NumberIntVal(1)),
			o(str("x"), cty.UnknownVal(n)), o(cty.UnknownVal(s), cty.NumberIntVal(2)), o(str("y"), cty.UnknownVal(n)),
			o(cty.NullVal(s), cty.NullVal(n)),
		}},
		{"tuple", cty.Tuple([]cty.Type{s, n}), []cty.Value{
			cty.NullVal(cty.Tuple([]cty.Type{s, n})), cty.UnknownVal(cty.Tuple([]cty.Type{s, n})),
			cty.TupleVal([]cty.Value{str("x"), cty.NumberIntVal(1)}), cty.TupleVal([]cty.Value{str("x"), cty.NumberIntVal(2)}),
			cty.TupleVal([]cty.Value{cty.UnknownVal(s), cty.NumberIntVal(2)}), cty.TupleVal([]cty.Value{str("y"), cty.UnknownVal(n)}),
		}},
		{"object with a dynamic attribute", objDyn, []cty.Value{
			cty.NullVal(objDyn),
			o(str("x"), str("1")), o(cty.NumberIntVal(1), str("1")), o(cty.DynamicVal, str("1")), o(cty.DynamicVal, str("2")),
			o(cty.NullVal(cty.DynamicPseudoType), str("1")), o(cty.NullVal(s), str("1")), o(cty.UnknownVal(s), str("2")),
			o(cty.ListVal([]cty.Value{cty.DynamicVal}), str("1")), o(cty.ListVal([]cty.Value{str("x")}), str("1")),
		}},
		{"list of dynamic", cty.List(cty.DynamicPseudoType), []cty.Value{
			cty.NullVal(cty.List(s)), cty.UnknownVal(cty.List(cty.DynamicPseudoType)), cty.ListValEmpty(cty.DynamicPseudoType),
			cty.ListValEmpty(s), cty.ListVal([]cty.Value{str("a")}), cty.ListVal([]cty.Value{cty.NumberIntVal(1)}),
			cty.ListVal([]cty.Value{cty.NullVal(s)}), cty.ListVal([]cty.Value{cty.NullVal(n)}),
			cty.ListVal([]cty.Value{cty.DynamicVal}), cty.ListVal([]cty.Value{cty.UnknownVal(s)}),
		}},
		{"dynamic", cty.DynamicPseudoType, []cty.Value{
			cty.NullVal(cty.DynamicPseudoType), cty.DynamicVal, cty.NullVal(s), cty.NullVal(n), cty.UnknownVal(s),
			unknown(s).NotNull().StringPrefix("1").NewValue(), str("1"), cty.NumberIntVal(1), cty.True,
			cty.ObjectVal(map[string]cty.Value{"a": str("x")}), cty.ObjectVal(map[string]cty.Value{"a": cty.DynamicVal}),
			cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.DynamicPseudoType)}),
			cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(s)}), cty.MapVal(map[string]cty.Value{"a": str("x")}),
			cty.TupleVal([]cty.Value{cty.DynamicVal, str("x")}), cty.TupleVal([]cty.Value{str("a"), str("y")}),
			cty.TupleVal([]cty.Value{str("a"), cty.NumberIntVal(2)}), cty.ListVal([]cty.Value{str("a")}),
			cty.SetVal([]cty.Value{str("a")}), cty.ListVal([]cty.Value{cty.UnknownVal(s)}),
		}},
	}
}

func wirePools() []wirePool {
	n := cty.Number
	return []wirePool{
		// A set finds an element by a hash of its text to 10 digits, while numbers are
		// equal when their float64s are: a -0 is not found among elements holding 0,
		// nor the number 0.12345678905 read from text among those holding its float64
		// (0.1234567890500000015; the two round apart at 10 digits), although
		// RawEquals, which compares the sets element by element, finds them equal.
		{"set of numbers as read", cty.Set(n), []string{
			"91cb8000000000000000", "9100", "91cb3fd3333333333333", "91a3302e33",
			"92a3302e33cb8000000000000000", "92a3302e30cb3fd3333333333333",
			"91ad302e3132333435363738393035", "91cb3fbf9add37705d1f",
			"91ad302e3132333435363738393135", "91cb3fbf9add37de509e",
			"91ac312e30303030303030303035", "91cb3ff0000000225c18",
		}},
		{"list of numbers as read", cty.List(n), []string{
			"91cb8000000000000000", "9100", "92cb3fd3333333333333cb8000000000000000", "92a3302e3300",
		}},
	}
}

// answers gives every answer a.Equals(b) gives in `rounds` tries: true, false or nil
// (unknown), sorted.
func answers(a, b cty.Value) []interface{} {
	seen := map[string]interface{}{}
	for i := 0; i < rounds; i++ {
		var r interface{}
		eq := a.Equals(b)
		if eq.IsKnown() {
			r = eq.True()
		}
		seen[fmt.Sprint(r)] = r
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]interface{}, 0, len(keys))
	for _, k := range keys {
		out = append(out, seen[k])
	}
	return out
}

// pairs gives the cases of a pool whose values are written as `wire`: each value with
// itself and every later one.
func pairs(p pool, wire [][]byte) []testCase {
	tyJSON, err := ctyjson.MarshalType(p.ty)
	if err != nil {
		panic(err)
	}
	var cases []testCase
	for i, a := range p.values {
		for j := i; j < len(p.values); j++ {
			b := p.values[j]
			ab, bb := wire[i], wire[j]
			ans := answers(a, b)
			same := len(ans) == 1 && ans[0] == true && a.RawEquals(b)
			if i != j && bytes.Equal(ab, bb) && !same {
				continue
			}
			if back := answers(b, a); fmt.Sprint(back) != fmt.Sprint(ans) {
				panic(fmt.Sprintf("%s %d %d: Equals is not symmetric", p.name, i, j))
			}
			var equals interface{} = ans
			if len(ans) == 1 {
				equals = ans[0]
			}
			cases = append(cases, testCase{
				Name:      fmt.Sprintf("%s %d %d", p.name, i, j),
				Type:      json.RawMessage(tyJSON),
				A:         hex.EncodeToString(ab),
				B:         hex.EncodeToString(bb),
				Equals:    equals,
				RawEquals: a.RawEquals(b),
			})
		}
	}
	return cases
}

func main() {
	out := file{
		Description: "go-cty's Value.Equals and Value.RawEquals on pairs of values of one type " +
			"(type: the type both are encoded and compared with; a, b: MessagePack hex; equals: " +
			"true, false or null for unknown, or the list of answers go-cty gives when they vary " +
			"with Go's map order; raw_equals: true or false)",
		Source: "go-cty 1.14.4 via vectors/gen/equality/main.go",
	}
	for _, p := range pools() {
		wire := make([][]byte, len(p.values))
		for i, v := range p.values {
			b, err := msgpack.Marshal(v, p.ty)
			if err != nil {
				panic(fmt.Sprintf("%s %d: %s", p.name, i, err))
			}
			wire[i] = b
		}
		out.Cases = append(out.Cases, pairs(p, wire)...)
	}
	for _, w := range wirePools() {
		p := pool{w.name, w.ty, nil}
		wire := make([][]byte, len(w.wire))
		for i, h := range w.wire {
			b, err := hex.DecodeString(h)
			if err != nil {
				panic(err)
			}
			v, err := msgpack.Unmarshal(b, w.ty)
			if err != nil {
				panic(fmt.Sprintf("%s %d: %s", w.name, i, err))
			}
			p.values = append(p.values, v)
			wire[i] = b
		}
		out.Cases = append(out.Cases, pairs(p, wire)...)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
