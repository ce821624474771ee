// Command terraform reads the test tables of Terraform's plan rules (package
// internal/plans/objchange: ProposedNew, AssertPlanValid, AssertObjectCompatible) from a
// Terraform source tree and writes them as ctywire vector files (vectors/plan/). It is a
// development tool: the Rust tests only read the files it writes.
//
// It does not build Terraform: it parses the _test.go files with go/parser and evaluates
// the table literals itself (cty value and type constructors, configschema literals,
// refinement chains, marks, the local variables and helper functions the tables use), so
// it runs with the Go of Debian (GOPATH mode, standard library only):
//
//	git -C TERRAFORM_MIRROR archive COMMIT internal | tar -x -C /tmp/tf
//	GO111MODULE=off go run ./vectors/gen/terraform -src /tmp/tf -commit COMMIT -out vectors/plan
//
// Values are written in the vector notation of vectors/README.md ("Plan vectors"): JSON
// typed by the schema's implied type, with {"$unknown": {...}} for unknowns and
// {"$type": T, "$value": V} at dynamic positions.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ---------------------------------------------------------------------------- types

// Type is a cty type.
type Type struct {
	Kind     string // bool number string dynamic list set map tuple object
	Elem     *Type
	Attrs    map[string]*Type
	Optional []string
	Elems    []*Type
}

var (
	tString  = &Type{Kind: "string"}
	tNumber  = &Type{Kind: "number"}
	tBool    = &Type{Kind: "bool"}
	tDynamic = &Type{Kind: "dynamic"}
)

func objectType(attrs map[string]*Type) *Type { return &Type{Kind: "object", Attrs: attrs} }

// JSON is the type's type JSON, as a value for encoding/json.
func (t *Type) JSON() interface{} {
	switch t.Kind {
	case "bool", "number", "string", "dynamic":
		return t.Kind
	case "list", "set", "map":
		return []interface{}{t.Kind, t.Elem.JSON()}
	case "tuple":
		elems := []interface{}{}
		for _, e := range t.Elems {
			elems = append(elems, e.JSON())
		}
		return []interface{}{"tuple", elems}
	case "object":
		attrs := map[string]interface{}{}
		for k, v := range t.Attrs {
			attrs[k] = v.JSON()
		}
		if len(t.Optional) > 0 {
			return []interface{}{"object", attrs, t.Optional}
		}
		return []interface{}{"object", attrs}
	}
	panic("bad type kind " + t.Kind)
}

func (t *Type) hasDynamic() bool {
	switch t.Kind {
	case "dynamic":
		return true
	case "list", "set", "map":
		return t.Elem.hasDynamic()
	case "tuple":
		for _, e := range t.Elems {
			if e.hasDynamic() {
				return true
			}
		}
	case "object":
		for _, a := range t.Attrs {
			if a.hasDynamic() {
				return true
			}
		}
	}
	return false
}

func (t *Type) withoutOptional() *Type {
	switch t.Kind {
	case "list", "set", "map":
		return &Type{Kind: t.Kind, Elem: t.Elem.withoutOptional()}
	case "tuple":
		out := &Type{Kind: "tuple"}
		for _, e := range t.Elems {
			out.Elems = append(out.Elems, e.withoutOptional())
		}
		return out
	case "object":
		attrs := map[string]*Type{}
		for k, v := range t.Attrs {
			attrs[k] = v.withoutOptional()
		}
		return objectType(attrs)
	}
	return t
}

// ---------------------------------------------------------------------------- values

// Bound is a number refinement bound.
type Bound struct {
	Num       string
	Inclusive bool
}

// Refinement is what is known about an unknown value.
type Refinement struct {
	NotNull  bool
	Prefix   *string
	Lower    *Bound
	Upper    *Bound
	LenLower *int64
	LenUpper *int64
}

// Val is a cty value with its type.
type Val struct {
	Ty      *Type
	Null    bool
	Unknown bool
	Ref     *Refinement
	Bool    bool
	Num     string
	Str     string
	Elems   []*Val
	Attrs   map[string]*Val
	Marks   []string
}

// refining is the state of a `.Refine()` chain: the value being refined.
type refining struct{ v *Val }

func (v *Val) copy() *Val {
	c := *v
	c.Marks = append([]string(nil), v.Marks...)
	if v.Ref != nil {
		r := *v.Ref
		c.Ref = &r
	}
	return &c
}

// ---------------------------------------------------------------------------- schemas

// Attribute is a configschema.Attribute.
type Attribute struct {
	Type       *Type
	NestedType *Object
	Required   bool
	Optional   bool
	Computed   bool
	Sensitive  bool
	WriteOnly  bool
}

// Object is a configschema.Object (a nested attribute type).
type Object struct {
	Nesting    string
	Attributes map[string]*Attribute
	MinItems   int64
	MaxItems   int64
}

// Block is a configschema.Block.
type Block struct {
	Attributes map[string]*Attribute
	BlockTypes map[string]*NestedBlock
	Computed   bool
}

// NestedBlock is a configschema.NestedBlock.
type NestedBlock struct {
	Nesting  string
	Block    *Block
	MinItems int64
	MaxItems int64
}

func (a *Attribute) impliedType() *Type {
	if a.NestedType != nil {
		return a.NestedType.impliedType()
	}
	return a.Type.withoutOptional()
}

func (o *Object) impliedType() *Type {
	attrs := map[string]*Type{}
	for k, a := range o.Attributes {
		attrs[k] = a.impliedType()
	}
	obj := objectType(attrs)
	switch o.Nesting {
	case "single", "group":
		return obj
	default:
		return &Type{Kind: o.Nesting, Elem: obj}
	}
}

func (b *Block) impliedType() *Type {
	attrs := map[string]*Type{}
	for k, a := range b.Attributes {
		attrs[k] = a.impliedType()
	}
	for k, nb := range b.BlockTypes {
		if _, shadowed := attrs[k]; !shadowed {
			attrs[k] = nb.impliedType()
		}
	}
	return objectType(attrs)
}

func (nb *NestedBlock) impliedType() *Type {
	obj := nb.Block.impliedType()
	switch nb.Nesting {
	case "single", "group":
		return obj
	case "set":
		return &Type{Kind: "set", Elem: obj}
	default:
		if obj.hasDynamic() {
			return tDynamic
		}
		return &Type{Kind: nb.Nesting, Elem: obj}
	}
}

func (b *Block) hasComputedBlocks() bool {
	if b.Computed {
		return true
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.hasComputedBlocks() {
			return true
		}
	}
	return false
}

// JSON is the block as `terraform providers schema -json` writes it.
func (b *Block) JSON() interface{} {
	out := ordered{}
	if len(b.Attributes) > 0 {
		attrs := ordered{}
		for _, k := range sortedKeys(b.Attributes) {
			attrs = append(attrs, kv{k, b.Attributes[k].JSON()})
		}
		out = append(out, kv{"attributes", attrs})
	}
	if len(b.BlockTypes) > 0 {
		blocks := ordered{}
		for _, k := range sortedKeys(b.BlockTypes) {
			blocks = append(blocks, kv{k, b.BlockTypes[k].JSON()})
		}
		out = append(out, kv{"block_types", blocks})
	}
	return out
}

func (a *Attribute) JSON() interface{} {
	out := ordered{}
	if a.Type != nil {
		out = append(out, kv{"type", a.Type.JSON()})
	}
	if a.NestedType != nil {
		nt := ordered{}
		attrs := ordered{}
		for _, k := range sortedKeys(a.NestedType.Attributes) {
			attrs = append(attrs, kv{k, a.NestedType.Attributes[k].JSON()})
		}
		nt = append(nt, kv{"attributes", attrs}, kv{"nesting_mode", a.NestedType.Nesting})
		if a.NestedType.MinItems > 0 {
			nt = append(nt, kv{"min_items", a.NestedType.MinItems})
		}
		if a.NestedType.MaxItems > 0 {
			nt = append(nt, kv{"max_items", a.NestedType.MaxItems})
		}
		out = append(out, kv{"nested_type", nt})
	}
	for _, flag := range []struct {
		name string
		on   bool
	}{{"required", a.Required}, {"optional", a.Optional}, {"computed", a.Computed}, {"sensitive", a.Sensitive}, {"write_only", a.WriteOnly}} {
		if flag.on {
			out = append(out, kv{flag.name, true})
		}
	}
	return out
}

func (nb *NestedBlock) JSON() interface{} {
	out := ordered{{"nesting_mode", nb.Nesting}, {"block", nb.Block.JSON()}}
	if nb.MinItems > 0 {
		out = append(out, kv{"min_items", nb.MinItems})
	}
	if nb.MaxItems > 0 {
		out = append(out, kv{"max_items", nb.MaxItems})
	}
	return out
}

// ---------------------------------------------------------------------------- ordered JSON

type kv struct {
	k string
	v interface{}
}

// ordered is a JSON object written in the order given.
type ordered []kv

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(e.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v interface{}) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ---------------------------------------------------------------------------- notation

// notation writes values in the vector notation, typed by the schema, and collects the
// paths of marked values.
type notation struct {
	marked   map[string][]string // mark -> paths
	dropped  []string            // attributes the schema does not have
	mistyped []string            // values whose type is not the schema's
	// convert writes a value of another collection kind as the schema's kind, as
	// msgpack.Marshal converts it (the renderer's tests encode their values so).
	convert   bool
	converted []string
}

func sequenceKind(k string) bool { return k == "list" || k == "set" || k == "tuple" }

func (n *notation) value(v *Val, want *Type, path string, inSet bool) interface{} {
	for _, m := range v.Marks {
		if inSet {
			fail("a marked value inside a set element at %s cannot be named by a path", path)
		}
		n.marked[m] = append(n.marked[m], path)
	}
	if want.Kind == "dynamic" && v.Ty.Kind != "dynamic" {
		return ordered{{"$type", v.Ty.JSON()}, {"$value", n.body(v, v.Ty, path, inSet)}}
	}
	if !v.Null && !v.Unknown && v.Ty.Kind != want.Kind && n.convert &&
		(sequenceKind(v.Ty.Kind) && sequenceKind(want.Kind) || v.Ty.Kind == "object" && want.Kind == "map") {
		n.converted = append(n.converted, fmt.Sprintf("%s (%s to %s)", path, v.Ty.Kind, want.Kind))
		return n.body(v, want, path, inSet)
	}
	if !v.Null && !v.Unknown && v.Ty.Kind != want.Kind {
		// Terraform's test value does not have the schema's type (a list where the
		// schema says set, say); the rules look at the value's own type, so it keeps it.
		n.mistyped = append(n.mistyped, fmt.Sprintf("%s (%s where the schema says %s)", path, v.Ty.Kind, want.Kind))
		return ordered{{"$type", v.Ty.JSON()}, {"$value", n.body(v, v.Ty, path, inSet)}}
	}
	return n.body(v, want, path, inSet)
}

func (n *notation) body(v *Val, want *Type, path string, inSet bool) interface{} {
	switch {
	case v.Null:
		return nil
	case v.Unknown:
		return ordered{{"$unknown", refinementJSON(v.Ref)}}
	}
	switch v.Ty.Kind {
	case "bool":
		return v.Bool
	case "number":
		return json.Number(v.Num)
	case "string":
		return v.Str
	case "list", "set", "tuple":
		out := []interface{}{}
		for i, e := range v.Elems {
			var et *Type
			switch want.Kind {
			case "tuple":
				et = want.Elems[i]
			case "list", "set":
				et = want.Elem
			default:
				fail("a %s value where the schema says %s", v.Ty.Kind, want.Kind)
			}
			out = append(out, n.value(e, et, fmt.Sprintf("%s[%d]", path, i), inSet || v.Ty.Kind == "set"))
		}
		return out
	case "map", "object":
		out := ordered{}
		for _, k := range sortedKeys(v.Attrs) {
			var et *Type
			var step string
			switch want.Kind {
			case "map":
				et, step = want.Elem, "["+strconv.Quote(k)+"]"
			case "object":
				et, step = want.Attrs[k], "."+k
				if et == nil {
					n.dropped = append(n.dropped, path+step)
					continue
				}
			default:
				fail("a %s value where the schema says %s", v.Ty.Kind, want.Kind)
			}
			out = append(out, kv{k, n.value(v.Attrs[k], et, path+step, inSet)})
		}
		return out
	}
	fail("cannot write a value of type %s", v.Ty.Kind)
	return nil
}

func refinementJSON(r *Refinement) interface{} {
	out := ordered{}
	if r == nil {
		return out
	}
	if r.NotNull {
		out = append(out, kv{"not_null", true})
	}
	if r.Prefix != nil {
		out = append(out, kv{"prefix", *r.Prefix})
	}
	if r.Lower != nil {
		out = append(out, kv{"lower", []interface{}{json.Number(r.Lower.Num), r.Lower.Inclusive}})
	}
	if r.Upper != nil {
		out = append(out, kv{"upper", []interface{}{json.Number(r.Upper.Num), r.Upper.Inclusive}})
	}
	if r.LenLower != nil {
		out = append(out, kv{"length_lower", *r.LenLower})
	}
	if r.LenUpper != nil {
		out = append(out, kv{"length_upper", *r.LenUpper})
	}
	return out
}

// ---------------------------------------------------------------------------- interpreter

type failure string

func fail(format string, args ...interface{}) { panic(failure(fmt.Sprintf(format, args...))) }

// omap is a Go map literal, keys in source order.
type omap struct {
	keys []string
	vals map[string]interface{}
}

// foreign is a call into a package the interpreter does not model
// (states.DeposedKey("a")): the function's name and its arguments.
type foreign struct {
	name string
	args []interface{}
}

type mark string
type nesting string

// unevaluable stands for a value the interpreter could not evaluate (a construct it
// does not know); it fails only where it is used.
type unevaluable struct{ reason string }

// try evaluates f, giving an unevaluable value where it fails.
func try(f func() interface{}) (v interface{}) {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(failure); ok {
				v = unevaluable{string(f)}
				return
			}
			panic(r)
		}
	}()
	return f()
}

// closure is a function literal and the variables it sees.
type closure struct {
	fn  *ast.FuncLit
	env *env
}
type constant string // another package constant (plans.Create, ...)

// interp evaluates the literal expressions of one test file.
type interp struct {
	fset    *token.FileSet
	file    *ast.File
	globals map[string]ast.Expr
	cache   map[string]interface{}
	funcs   map[string]*ast.FuncDecl
	types   map[string]ast.Expr
}

type env struct {
	vars   map[string]interface{}
	parent *env
}

func (e *env) lookup(name string) (interface{}, bool) {
	for ; e != nil; e = e.parent {
		if v, ok := e.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func load(path string) *interp {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		fail("parsing %s: %s", path, err)
	}
	in := &interp{fset: fset, file: file, globals: map[string]ast.Expr{}, cache: map[string]interface{}{},
		funcs: map[string]*ast.FuncDecl{}, types: map[string]ast.Expr{}}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			in.funcs[d.Name.Name] = d
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for i, name := range s.Names {
						if i < len(s.Values) {
							in.globals[name.Name] = s.Values[i]
						}
					}
				case *ast.TypeSpec:
					in.types[s.Name.Name] = s.Type
				}
			}
		}
	}
	return in
}

func (in *interp) text(n ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, in.fset, n)
	return b.String()
}

func (in *interp) where(n ast.Node) string {
	p := in.fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// table evaluates the local variables of test function fn in order and returns the table
// assigned to one of names, with each case's line.
func (in *interp) table(fn string, names ...string) (interface{}, *env) {
	decl := in.funcs[fn]
	if decl == nil {
		fail("no function %s", fn)
	}
	e := &env{vars: map[string]interface{}{}}
	for _, stmt := range decl.Body.List {
		assign, ok := stmt.(*ast.AssignStmt)
		if !ok || assign.Tok != token.DEFINE || len(assign.Lhs) != 1 {
			continue
		}
		name := assign.Lhs[0].(*ast.Ident).Name
		rhs := assign.Rhs[0]
		v := try(func() interface{} { return in.eval(rhs, nil, e) })
		for _, want := range names {
			if name == want {
				return v, e
			}
		}
		e.vars[name] = v
	}
	fail("no table in %s", fn)
	return nil, nil
}

func deref(t ast.Expr) ast.Expr {
	if s, ok := t.(*ast.StarExpr); ok {
		return s.X
	}
	return t
}

func (in *interp) eval(x ast.Expr, typ ast.Expr, e *env) interface{} {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(failure); ok && !strings.Contains(string(f), " (at ") {
				panic(failure(fmt.Sprintf("%s (at %s)", f, in.where(x))))
			}
			panic(r)
		}
	}()
	switch x := x.(type) {
	case *ast.BasicLit:
		switch x.Kind {
		case token.STRING:
			s, err := strconv.Unquote(x.Value)
			if err != nil {
				fail("bad string %s", x.Value)
			}
			return s
		case token.INT:
			i, err := strconv.ParseInt(x.Value, 0, 64)
			if err != nil {
				fail("bad int %s", x.Value)
			}
			return i
		case token.FLOAT:
			return json.Number(x.Value)
		}
	case *ast.Ident:
		switch x.Name {
		case "true":
			return true
		case "false":
			return false
		case "nil":
			return nil
		}
		if v, ok := e.lookup(x.Name); ok {
			if u, ok := v.(unevaluable); ok {
				fail("%s", u.reason)
			}
			return v
		}
		if v, ok := in.cache[x.Name]; ok {
			return v
		}
		if g, ok := in.globals[x.Name]; ok {
			v := in.eval(g, nil, &env{vars: map[string]interface{}{}})
			in.cache[x.Name] = v
			return v
		}
		fail("unknown identifier %s", x.Name)
	case *ast.ParenExpr:
		return in.eval(x.X, typ, e)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return in.eval(x.X, typ, e)
		}
		if x.Op == token.SUB {
			switch v := in.eval(x.X, nil, e).(type) {
			case int64:
				return -v
			}
		}
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			if _, local := e.lookup(pkg.Name); !local {
				return in.constant(pkg.Name, x.Sel.Name)
			}
		}
	case *ast.CompositeLit:
		t := x.Type
		if t == nil {
			t = typ
		}
		if t == nil {
			fail("composite literal without a type")
		}
		return in.composite(x, t, e)
	case *ast.CallExpr:
		return in.call(x, e)
	case *ast.FuncLit:
		return &closure{fn: x, env: e}
	case *ast.BinaryExpr:
		l, r := in.eval(x.X, nil, e), in.eval(x.Y, nil, e)
		switch x.Op {
		case token.EQL:
			return l == r
		case token.NEQ:
			return l != r
		}
	}
	fail("cannot evaluate %s", in.text(x))
	return nil
}

func (in *interp) constant(pkg, name string) interface{} {
	switch pkg {
	case "cty":
		switch name {
		case "String":
			return tString
		case "Number":
			return tNumber
		case "Bool":
			return tBool
		case "DynamicPseudoType":
			return tDynamic
		case "EmptyObject":
			return objectType(map[string]*Type{})
		case "EmptyTuple":
			return &Type{Kind: "tuple"}
		case "EmptyObjectVal":
			return &Val{Ty: objectType(map[string]*Type{}), Attrs: map[string]*Val{}}
		case "EmptyTupleVal":
			return &Val{Ty: &Type{Kind: "tuple"}}
		case "DynamicVal":
			return &Val{Ty: tDynamic, Unknown: true}
		case "True":
			return &Val{Ty: tBool, Bool: true}
		case "False":
			return &Val{Ty: tBool}
		case "Zero":
			return &Val{Ty: tNumber, Num: "0"}
		case "NilVal":
			return (*Val)(nil)
		}
	case "configschema":
		switch name {
		case "NestingSingle":
			return nesting("single")
		case "NestingGroup":
			return nesting("group")
		case "NestingList":
			return nesting("list")
		case "NestingSet":
			return nesting("set")
		case "NestingMap":
			return nesting("map")
		}
	case "marks":
		return mark(strings.ToLower(name))
	default:
		return constant(pkg + "." + name)
	}
	fail("unknown constant %s.%s", pkg, name)
	return nil
}

// composite evaluates a composite literal of (possibly elided) type t.
func (in *interp) composite(x *ast.CompositeLit, t ast.Expr, e *env) interface{} {
	t = deref(t)
	if id, ok := t.(*ast.Ident); ok {
		if named, ok := in.types[id.Name]; ok {
			t = named
		}
	}
	switch t := t.(type) {
	case *ast.MapType:
		m := &omap{vals: map[string]interface{}{}}
		for _, elt := range x.Elts {
			pair := elt.(*ast.KeyValueExpr)
			key, ok := in.eval(pair.Key, nil, e).(string)
			if !ok {
				fail("map key is not a string")
			}
			m.keys = append(m.keys, key)
			value := pair.Value
			m.vals[key] = try(func() interface{} { return in.eval(value, t.Value, e) })
		}
		return m
	case *ast.ArrayType:
		out := []interface{}{}
		for _, elt := range x.Elts {
			out = append(out, in.eval(elt, t.Elt, e))
		}
		return out
	case *ast.StructType:
		var names []string
		types := map[string]ast.Expr{}
		for _, field := range t.Fields.List {
			for _, n := range field.Names {
				names = append(names, n.Name)
				types[n.Name] = field.Type
			}
		}
		fields := map[string]interface{}{}
		for i, elt := range x.Elts {
			if pair, ok := elt.(*ast.KeyValueExpr); ok {
				name := pair.Key.(*ast.Ident).Name
				fields[name] = in.eval(pair.Value, types[name], e)
			} else {
				fields[names[i]] = in.eval(elt, types[names[i]], e)
			}
		}
		fields["$line"] = in.where(x)
		return fields
	case *ast.SelectorExpr:
		return in.schemaLiteral(in.text(t), x, e)
	}
	fail("unsupported composite literal type %s", in.text(t))
	return nil
}

// fields evaluates a keyed struct literal of a package type.
func (in *interp) fields(x *ast.CompositeLit, e *env, types map[string]ast.Expr) map[string]interface{} {
	out := map[string]interface{}{}
	for _, elt := range x.Elts {
		pair, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			fail("positional fields in %s", in.text(x))
		}
		name := pair.Key.(*ast.Ident).Name
		out[name] = in.eval(pair.Value, types[name], e)
	}
	return out
}

func parseType(text string) ast.Expr {
	t, err := parser.ParseExpr(text)
	if err != nil {
		fail("bad type text %s", text)
	}
	return t
}

func (in *interp) schemaLiteral(name string, x *ast.CompositeLit, e *env) interface{} {
	switch name {
	case "configschema.Block":
		f := in.fields(x, e, map[string]ast.Expr{
			"Attributes": parseType("map[string]*configschema.Attribute{}"),
			"BlockTypes": parseType("map[string]*configschema.NestedBlock{}"),
		})
		b := &Block{Attributes: map[string]*Attribute{}, BlockTypes: map[string]*NestedBlock{}}
		for k, v := range f {
			switch k {
			case "Attributes":
				for name, a := range v.(*omap).vals {
					b.Attributes[name] = a.(*Attribute)
				}
			case "BlockTypes":
				for name, nb := range v.(*omap).vals {
					b.BlockTypes[name] = nb.(*NestedBlock)
				}
			case "Computed":
				b.Computed = v.(bool)
			case "Description", "DescriptionKind", "Deprecated":
			default:
				fail("unknown Block field %s", k)
			}
		}
		return b
	case "configschema.Attribute":
		f := in.fields(x, e, nil)
		a := &Attribute{}
		for k, v := range f {
			switch k {
			case "Type":
				a.Type = v.(*Type)
			case "NestedType":
				a.NestedType = v.(*Object)
			case "Required":
				a.Required = v.(bool)
			case "Optional":
				a.Optional = v.(bool)
			case "Computed":
				a.Computed = v.(bool)
			case "Sensitive":
				a.Sensitive = v.(bool)
			case "WriteOnly":
				a.WriteOnly = v.(bool)
			case "Description", "Deprecated":
			default:
				fail("unknown Attribute field %s", k)
			}
		}
		return a
	case "configschema.Object":
		f := in.fields(x, e, map[string]ast.Expr{
			"Attributes": parseType("map[string]*configschema.Attribute{}"),
		})
		o := &Object{Attributes: map[string]*Attribute{}}
		for k, v := range f {
			switch k {
			case "Nesting":
				o.Nesting = string(v.(nesting))
			case "Attributes":
				for name, a := range v.(*omap).vals {
					o.Attributes[name] = a.(*Attribute)
				}
			case "MinItems":
				o.MinItems = v.(int64)
			case "MaxItems":
				o.MaxItems = v.(int64)
			default:
				fail("unknown Object field %s", k)
			}
		}
		return o
	case "configschema.NestedBlock":
		f := in.fields(x, e, map[string]ast.Expr{"Block": parseType("configschema.Block{}")})
		nb := &NestedBlock{}
		for k, v := range f {
			switch k {
			case "Nesting":
				nb.Nesting = string(v.(nesting))
			case "Block":
				nb.Block = v.(*Block)
			case "MinItems":
				nb.MinItems = v.(int64)
			case "MaxItems":
				nb.MaxItems = v.(int64)
			default:
				fail("unknown NestedBlock field %s", k)
			}
		}
		if nb.Block == nil {
			nb.Block = &Block{Attributes: map[string]*Attribute{}, BlockTypes: map[string]*NestedBlock{}}
		}
		return nb
	case "cty.Value":
		if len(x.Elts) == 0 {
			return (*Val)(nil)
		}
	case "cty.Path":
		var path []pathStep
		for _, elt := range x.Elts {
			path = append(path, in.eval(elt, nil, e).(pathStep))
		}
		return path
	case "cty.GetAttrStep":
		f := in.fields(x, e, nil)
		return pathStep{attr: f["Name"].(string), isAttr: true}
	case "cty.IndexStep":
		f := in.fields(x, e, nil)
		return pathStep{key: f["Key"].(*Val)}
	}
	fail("unsupported literal %s", name)
	return nil
}

// pathStep is a cty.PathStep.
type pathStep struct {
	isAttr bool
	attr   string
	key    *Val
}

func vals(v interface{}) []*Val {
	var out []*Val
	for _, x := range v.([]interface{}) {
		out = append(out, x.(*Val))
	}
	return out
}

func (in *interp) call(x *ast.CallExpr, e *env) interface{} {
	args := func(types ...string) []interface{} {
		var out []interface{}
		for i, a := range x.Args {
			var t ast.Expr
			if i < len(types) && types[i] != "" {
				t = parseType(types[i])
			}
			out = append(out, in.eval(a, t, e))
		}
		return out
	}
	switch fun := x.Fun.(type) {
	case *ast.SelectorExpr:
		if pkg, ok := fun.X.(*ast.Ident); ok && pkg.Name == "cty" {
			if _, local := e.lookup("cty"); !local {
				return in.ctyCall(fun.Sel.Name, args)
			}
		}
		if pkg, ok := fun.X.(*ast.Ident); ok {
			if _, local := e.lookup(pkg.Name); !local && in.globals[pkg.Name] == nil {
				// A conversion or constructor of another package: its argument, named.
				return foreign{pkg.Name + "." + fun.Sel.Name, args()}
			}
		}
		recv := in.eval(fun.X, nil, e)
		return in.method(recv, fun.Sel.Name, args())
	case *ast.Ident:
		if c, ok := e.lookup(fun.Name); ok {
			if c, ok := c.(*closure); ok {
				return in.apply(c.fn.Type, c.fn.Body, x.Args, e, &env{vars: map[string]interface{}{}, parent: c.env})
			}
		}
		decl := in.funcs[fun.Name]
		if decl == nil {
			fail("unknown function %s", fun.Name)
		}
		return in.apply(decl.Type, decl.Body, x.Args, e, &env{vars: map[string]interface{}{}})
	}
	fail("unsupported call %s", in.text(x))
	return nil
}

// apply runs a function whose body is assignments and a return, with its parameters
// bound to args (evaluated in caller).
func (in *interp) apply(ty *ast.FuncType, body *ast.BlockStmt, args []ast.Expr, caller, inner *env) interface{} {
	i := 0
	for _, field := range ty.Params.List {
		for _, n := range field.Names {
			inner.vars[n.Name] = in.eval(args[i], nil, caller)
			i++
		}
	}
	if v, returned := in.run(body.List, inner, ty.Results.List[0].Type); returned {
		return v
	}
	fail("a function without a return")
	return nil
}

// run runs statements (declarations, assignments, ifs, a return), giving the returned
// value and whether there was one.
func (in *interp) run(stmts []ast.Stmt, e *env, result ast.Expr) (interface{}, bool) {
	for _, stmt := range stmts {
		switch s := stmt.(type) {
		case *ast.AssignStmt:
			e.vars[s.Lhs[0].(*ast.Ident).Name] = in.eval(s.Rhs[0], nil, e)
		case *ast.DeclStmt:
			for _, spec := range s.Decl.(*ast.GenDecl).Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					e.vars[name.Name] = in.eval(vs.Values[i], nil, e)
				}
			}
		case *ast.IfStmt:
			var branch []ast.Stmt
			if in.eval(s.Cond, nil, e).(bool) {
				branch = s.Body.List
			} else if s.Else != nil {
				branch = s.Else.(*ast.BlockStmt).List
			}
			if v, returned := in.run(branch, e, result); returned {
				return v, true
			}
		case *ast.ReturnStmt:
			return in.eval(s.Results[0], result, e), true
		default:
			fail("unsupported statement %s", in.text(s))
		}
	}
	return nil, false
}

func (in *interp) ctyCall(name string, args func(...string) []interface{}) interface{} {
	switch name {
	case "ObjectVal":
		m := args("map[string]cty.Value{}")[0].(*omap)
		v := &Val{Ty: objectType(map[string]*Type{}), Attrs: map[string]*Val{}}
		for k, a := range m.vals {
			av := a.(*Val)
			v.Attrs[k] = av
			v.Ty.Attrs[k] = av.Ty
		}
		return v
	case "MapVal":
		m := args("map[string]cty.Value{}")[0].(*omap)
		v := &Val{Attrs: map[string]*Val{}}
		for _, k := range m.keys {
			av := m.vals[k].(*Val)
			v.Attrs[k] = av
			if v.Ty == nil {
				v.Ty = &Type{Kind: "map", Elem: av.Ty}
			}
		}
		if v.Ty == nil {
			fail("MapVal with no elements")
		}
		return v
	case "ListVal", "SetVal", "TupleVal":
		elems := vals(args("[]cty.Value{}")[0])
		kind := strings.ToLower(strings.TrimSuffix(name, "Val"))
		v := &Val{Elems: elems}
		if kind == "tuple" {
			v.Ty = &Type{Kind: "tuple"}
			for _, el := range elems {
				v.Ty.Elems = append(v.Ty.Elems, el.Ty)
			}
		} else {
			if len(elems) == 0 {
				fail("%s with no elements", name)
			}
			v.Ty = &Type{Kind: kind, Elem: elems[0].Ty}
			for _, el := range elems {
				if el.Ty.Kind != "dynamic" {
					v.Ty.Elem = el.Ty
					break
				}
			}
		}
		return v
	case "ListValEmpty", "SetValEmpty", "MapValEmpty":
		t := args()[0].(*Type)
		kind := strings.ToLower(strings.TrimSuffix(name, "ValEmpty"))
		v := &Val{Ty: &Type{Kind: kind, Elem: t}}
		if kind == "map" {
			v.Attrs = map[string]*Val{}
		}
		return v
	case "NullVal":
		return &Val{Ty: args()[0].(*Type), Null: true}
	case "UnknownVal":
		return &Val{Ty: args()[0].(*Type), Unknown: true}
	case "StringVal":
		return &Val{Ty: tString, Str: args()[0].(string)}
	case "NumberIntVal":
		return &Val{Ty: tNumber, Num: strconv.FormatInt(args()[0].(int64), 10)}
	case "NumberFloatVal":
		switch n := args()[0].(type) {
		case json.Number:
			return &Val{Ty: tNumber, Num: string(n)}
		case int64:
			return &Val{Ty: tNumber, Num: strconv.FormatInt(n, 10)}
		}
	case "MustParseNumberVal":
		return &Val{Ty: tNumber, Num: args()[0].(string)}
	case "BoolVal":
		return &Val{Ty: tBool, Bool: args()[0].(bool)}
	case "Object":
		m := args("map[string]cty.Type{}")[0].(*omap)
		attrs := map[string]*Type{}
		for k, t := range m.vals {
			attrs[k] = t.(*Type)
		}
		return objectType(attrs)
	case "ObjectWithOptionalAttrs":
		a := args("map[string]cty.Type{}", "[]string{}")
		t := in.ctyCall("Object", func(...string) []interface{} { return a[:1] }).(*Type)
		for _, o := range a[1].([]interface{}) {
			t.Optional = append(t.Optional, o.(string))
		}
		sort.Strings(t.Optional)
		return t
	case "List", "Set", "Map":
		return &Type{Kind: strings.ToLower(name), Elem: args()[0].(*Type)}
	case "Tuple":
		t := &Type{Kind: "tuple"}
		for _, e := range args("[]cty.Type{}")[0].([]interface{}) {
			t.Elems = append(t.Elems, e.(*Type))
		}
		return t
	case "GetAttrPath":
		return []pathStep{{isAttr: true, attr: args()[0].(string)}}
	case "IndexIntPath":
		return []pathStep{{key: &Val{Ty: tNumber, Num: strconv.FormatInt(args()[0].(int64), 10)}}}
	case "IndexStringPath":
		return []pathStep{{key: &Val{Ty: tString, Str: args()[0].(string)}}}
	case "NewPathSet":
		var out [][]pathStep
		for _, p := range args() {
			out = append(out, p.([]pathStep))
		}
		return out
	}
	fail("unsupported cty.%s", name)
	return nil
}

func (in *interp) method(recv interface{}, name string, args []interface{}) interface{} {
	switch r := recv.(type) {
	case *Val:
		switch name {
		case "Mark":
			c := r.copy()
			c.Marks = append(c.Marks, string(args[0].(mark)))
			return c
		case "Type":
			return r.Ty
		case "RefineNotNull":
			return (&refining{r.copy()}).notNull().v
		case "Refine":
			return &refining{r.copy()}
		}
	case *refining:
		ref := r.v.Ref
		if ref == nil {
			ref = &Refinement{}
			r.v.Ref = ref
		}
		switch name {
		case "NotNull":
			return r.notNull()
		case "StringPrefixFull":
			s := args[0].(string)
			ref.Prefix = &s
			return r
		case "StringPrefix":
			s := args[0].(string)
			last := s[len(s)-1]
			if last >= 0x80 || (last >= 'a' && last <= 'z') || (last >= 'A' && last <= 'Z') || (last >= '0' && last <= '9') {
				fail("StringPrefix(%q): only prefixes ending in ASCII punctuation are supported", s)
			}
			ref.Prefix = &s
			return r
		case "NumberRangeLowerBound":
			ref.Lower = &Bound{args[0].(*Val).Num, args[1].(bool)}
			return r
		case "NumberRangeUpperBound":
			ref.Upper = &Bound{args[0].(*Val).Num, args[1].(bool)}
			return r
		case "NumberRangeInclusive":
			ref.Lower = &Bound{args[0].(*Val).Num, true}
			ref.Upper = &Bound{args[1].(*Val).Num, true}
			return r
		case "CollectionLengthLowerBound":
			n := args[0].(int64)
			ref.LenLower = &n
			return r
		case "CollectionLengthUpperBound":
			n := args[0].(int64)
			ref.LenUpper = &n
			return r
		case "CollectionLength":
			n := args[0].(int64)
			ref.LenLower, ref.LenUpper = &n, &n
			return r
		case "NewValue":
			return r.v
		}
	case *Block:
		if name == "ImpliedType" {
			return r.impliedType()
		}
	case []pathStep:
		switch name {
		case "GetAttr":
			return append(append([]pathStep(nil), r...), pathStep{isAttr: true, attr: args[0].(string)})
		case "IndexInt":
			return append(append([]pathStep(nil), r...), pathStep{key: &Val{Ty: tNumber, Num: strconv.FormatInt(args[0].(int64), 10)}})
		case "IndexString":
			return append(append([]pathStep(nil), r...), pathStep{key: &Val{Ty: tString, Str: args[0].(string)}})
		case "Index":
			return append(append([]pathStep(nil), r...), pathStep{key: args[0].(*Val)})
		}
	}
	fail("unsupported method %s on %T", name, recv)
	return nil
}

func (r *refining) notNull() *refining {
	if r.v.Ref == nil {
		r.v.Ref = &Refinement{}
	}
	r.v.Ref.NotNull = true
	return r
}

// ---------------------------------------------------------------------------- cases

type vectorFile struct {
	Description string        `json:"description"`
	Source      string        `json:"source"`
	Cases       []interface{} `json:"cases"`
}

func write(path string, f vectorFile) {
	b, err := marshal(f)
	if err != nil {
		fail("encoding %s: %s", path, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", " "); err != nil {
		fail("indenting %s: %s", path, err)
	}
	out.WriteByte('\n')
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		fail("writing %s: %s", path, err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d cases\n", path, len(f.Cases))
}

// caseFields writes one case: its name and source, the schema, and each value under its
// field name, with the paths of marked values.
func caseFields(name, source string, schema *Block, values []kv, extra ...kv) ordered {
	return caseFieldsConverting(false, name, source, schema, values, extra...)
}

func caseFieldsConverting(convert bool, name, source string, schema *Block, values []kv, extra ...kv) ordered {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(failure); ok {
				panic(failure(fmt.Sprintf("%s: %s", source, f)))
			}
			panic(r)
		}
	}()
	c := ordered{{"name", name}, {"source", source}}
	if schema.hasComputedBlocks() {
		c = append(c, kv{"skip", "computed blocks (Terraform 1.16's Block.Computed) are not in `providers schema -json`, so not in this crate's schema model"})
	}
	c = append(c, kv{"schema", schema.JSON()})
	ty := schema.impliedType()
	var dropped, mistyped, converted []string
	for _, field := range values {
		v := field.v.(*Val)
		n := &notation{marked: map[string][]string{}, convert: convert}
		c = append(c, kv{field.k, n.value(v, ty, "", false)})
		for _, p := range n.converted {
			converted = append(converted, p+" in "+field.k)
		}
		for _, p := range n.dropped {
			dropped = append(dropped, p+" in "+field.k)
		}
		for _, p := range n.mistyped {
			mistyped = append(mistyped, p+" in "+field.k)
		}
		for _, m := range sortedKeys(n.marked) {
			if m == "ephemeral" {
				// Ephemeral marks only travel inside Terraform; the rules ignore them.
				continue
			}
			c = append(c, kv{field.k + "_" + m, n.marked[m]})
		}
	}
	var notes []string
	if len(dropped) > 0 {
		notes = append(notes, "Terraform's test values hold attributes the schema does not have, which the rules never look at; left out here: "+strings.Join(dropped, ", "))
	}
	if len(mistyped) > 0 {
		notes = append(notes, "Terraform's test values do not have the schema's type here, and keep their own ($type), which the rules and messages follow: "+strings.Join(mistyped, ", "))
	}
	if len(converted) > 0 {
		notes = append(notes, "Terraform's test values are converted to the schema's type when its test encodes them, and are written so here: "+strings.Join(converted, ", "))
	}
	if len(notes) > 0 {
		c = append(c, kv{"note", strings.Join(notes, ". ")})
	}
	return append(c, extra...)
}

func messages(v interface{}) []string {
	out := []string{}
	if v == nil {
		return out
	}
	for _, m := range v.([]interface{}) {
		out = append(out, m.(string))
	}
	return out
}

// rows are the cases of a table, named: a map's keys, or case-NN for a slice.
func rows(table interface{}) ([]string, []map[string]interface{}) {
	var names []string
	var out []map[string]interface{}
	switch t := table.(type) {
	case *omap:
		for _, name := range t.keys {
			names = append(names, name)
			out = append(out, t.vals[name].(map[string]interface{}))
		}
	case []interface{}:
		for i, row := range t {
			names = append(names, fmt.Sprintf("case-%02d", i))
			out = append(out, row.(map[string]interface{}))
		}
	}
	return names, out
}

// origin says where a file's cases come from.
type origin struct {
	files  map[string]string // test function -> the file holding it
	prefix string            // "terraform" or "ctywire"
	from   string            // the file-level source
	about  string            // a sentence on where the cases are from
}

func (o origin) generate(outDir string) {
	kinds := []struct {
		test, out, description string
		fields                 []string
		violations             bool
	}{
		{"TestProposedNew", "proposed-new", "ProposedNew: the proposed new state Terraform sends in PlanResourceChange, from the prior state and the configuration.", []string{"Prior:prior", "Config:config", "Want:proposed"}, false},
		{"TestAssertPlanValid", "plan-valid", "AssertPlanValid: whether a planned state is a valid plan for the prior state and the configuration (\"Provider produced invalid plan\"). `violations` are Terraform's messages as tfdiags.FormatError prints them, compared as a set.", []string{"Prior:prior", "Config:config", "Planned:planned"}, true},
		{"TestAssertObjectCompatible", "object-compatible", "AssertObjectCompatible: whether a new state is a valid result of applying a planned state (\"Provider produced inconsistent result after apply\"). `violations` are Terraform's messages as tfdiags.FormatError prints them, compared as a set.", []string{"Planned:planned", "Actual:actual"}, true},
	}
	for _, k := range kinds {
		path := o.files[k.test]
		table, _ := load(path).table(k.test, "tests")
		names, table2 := rows(table)
		var cases []interface{}
		for i, t := range table2 {
			var values []kv
			for _, f := range k.fields {
				parts := strings.SplitN(f, ":", 2)
				values = append(values, kv{parts[1], t[parts[0]]})
			}
			var extra []kv
			if k.violations {
				extra = append(extra, kv{"violations", messages(t["WantErrs"])})
			}
			source := fmt.Sprintf("%s %s %s (%s)", o.prefix, k.test, strconv.Quote(names[i]), t["$line"].(string))
			cases = append(cases, caseFields(names[i], source, t["Schema"].(*Block), values, extra...))
		}
		write(filepath.Join(outDir, o.prefix+"-"+k.out+".json"), vectorFile{
			Description: k.description + " " + o.about,
			Source:      o.from + filepath.Base(path),
			Cases:       cases,
		})
	}
}

// pathText writes a path in this crate's syntax (.name, [0], ["key"]).
func pathText(path []pathStep) string {
	var b strings.Builder
	for _, step := range path {
		switch {
		case step.isAttr:
			b.WriteString("." + step.attr)
		case step.key.Ty.Kind == "number":
			b.WriteString("[" + step.key.Num + "]")
		case step.key.Ty.Kind == "string":
			b.WriteString("[" + strconv.Quote(step.key.Str) + "]")
		default:
			fail("a path step this crate's paths cannot write")
		}
	}
	return b.String()
}

func pathTexts(v interface{}) []string {
	out := []string{}
	switch ps := v.(type) {
	case nil:
	case [][]pathStep:
		for _, p := range ps {
			out = append(out, pathText(p))
		}
	case []interface{}:
		for _, p := range ps {
			out = append(out, pathText(p.([]pathStep)))
		}
	default:
		fail("paths of an unexpected kind %T", v)
	}
	sort.Strings(out)
	return out
}

var actionNames = map[string]string{
	"plans.Create":           "create",
	"plans.Delete":           "delete",
	"plans.Update":           "update",
	"plans.DeleteThenCreate": "delete-then-create",
	"plans.CreateThenDelete": "create-then-delete",
	"plans.Read":             "read",
	"plans.NoOp":             "no-op",
	"plans.Forget":           "forget",
	"plans.CreateThenForget": "create-then-forget",
}

// The jsonplan names of the action reasons (its action_reason field).
var reasonNames = map[string]string{
	"plans.ResourceInstanceChangeNoReason":                "",
	"plans.ResourceInstanceReplaceBecauseCannotUpdate":    "replace_because_cannot_update",
	"plans.ResourceInstanceReplaceBecauseTainted":         "replace_because_tainted",
	"plans.ResourceInstanceReplaceByRequest":              "replace_by_request",
	"plans.ResourceInstanceReplaceByTriggers":             "replace_by_triggers",
	"plans.ResourceInstanceDeleteBecauseNoResourceConfig": "delete_because_no_resource_config",
	"plans.ResourceInstanceDeleteBecauseNoModule":         "delete_because_no_module",
	"plans.ResourceInstanceDeleteBecauseNoMoveTarget":     "delete_because_no_move_target",
	"plans.ResourceInstanceReadBecauseConfigUnknown":      "read_because_config_unknown",
	"plans.ResourceInstanceReadBecauseDependencyPending":  "read_because_dependency_pending",
}

// renderCases writes the plan renderer's cases: every testCase table of Terraform's
// internal/command/jsonformat/plan_test.go.
func renderCases(src, commit, outDir string) {
	path := filepath.Join(src, "internal", "command", "jsonformat", "plan_test.go")
	in := load(path)
	var names []string
	for name, decl := range in.funcs {
		// The deferred-action test renders deferred changes, through another entry point.
		if strings.HasPrefix(name, "TestResourceChange_") && name != "TestResourceChange_deferredActions" {
			names = append(names, name)
			_ = decl
		}
	}
	sort.Slice(names, func(i, j int) bool { return in.funcs[names[i]].Pos() < in.funcs[names[j]].Pos() })
	var cases []interface{}
	for _, fn := range names {
		table := try(func() interface{} { t, _ := in.table(fn, "testCases"); return t })
		m, ok := table.(*omap)
		if !ok {
			continue
		}
		for _, name := range m.keys {
			source := fmt.Sprintf("terraform plan_test.go %s %s", fn, strconv.Quote(name))
			c := renderCase(name, source, m.vals[name])
			if c == nil {
				continue
			}
			cases = append(cases, c)
		}
	}
	write(filepath.Join(outDir, "terraform-render.json"), vectorFile{
		Description: "The plan renderer: a resource change as `terraform plan` prints it, from the values before and after, the sensitive paths of each, the paths that force replacement, the action and its reason. Every testCase of Terraform's plan renderer tests (TestResourceChange_*); output without colour.",
		Source:      fmt.Sprintf("Terraform commit %s, internal/command/jsonformat/plan_test.go", commit),
		Cases:       cases,
	})
}

func renderCase(name, source string, row interface{}) interface{} {
	t, ok := row.(map[string]interface{})
	if !ok {
		u := row.(unevaluable)
		return ordered{{"name", name}, {"source", source}, {"skip", "not extracted: " + u.reason}}
	}
	source += " (" + t["$line"].(string) + ")"
	for _, field := range []string{"InstanceKey", "ModuleInst", "PrevRunAddr"} {
		if t[field] != nil {
			return ordered{{"name", name}, {"source", source}, {"skip", "the resource address has a module, an instance key or a previous address (" + field + "); the renderer takes a plain address"}}
		}
	}
	var skip string
	return try(func() interface{} {
		extra := []kv{{"action", actionNames[string(t["Action"].(constant))]}}
		if r, ok := t["ActionReason"].(constant); ok {
			reason, known := reasonNames[string(r)]
			if !known {
				skip = "action reason " + string(r)
			}
			if reason != "" {
				extra = append(extra, kv{"action_reason", reason})
			}
		}
		if t["Mode"] == constant("addrs.DataResourceMode") {
			extra = append(extra, kv{"mode", "data"})
		}
		if d, ok := t["DeposedKey"].(foreign); ok {
			extra = append(extra, kv{"deposed", d.args[0].(string)})
		}
		extra = append(extra,
			kv{"before_sensitive", pathTexts(t["BeforeSensitivePaths"])},
			kv{"after_sensitive", pathTexts(t["AfterSensitivePaths"])},
			kv{"requires_replace", pathTexts(t["RequiredReplace"])},
			kv{"output", t["ExpectedOutput"].(string)},
		)
		schema := t["Schema"].(*Block)
		c := caseFieldsConverting(true, name, source, schema, []kv{{"before", t["Before"]}, {"after", t["After"]}}, extra...)
		if skip != "" {
			c = append(ordered{{"skip", skip}}, c...)
		}
		return c
	}).(interface{})
}

func main() {
	src := flag.String("src", "", "a Terraform source tree (holding internal/plans/objchange)")
	commit := flag.String("commit", "", "the Terraform commit the tree is")
	outDir := flag.String("out", "vectors/plan", "where to write the vector files")
	flag.Parse()
	if *src == "" || *commit == "" {
		fmt.Fprintln(os.Stderr, "usage: terraform -src DIR -commit COMMIT [-out DIR]")
		os.Exit(2)
	}
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(failure); ok {
				fmt.Fprintln(os.Stderr, "error:", string(f))
				os.Exit(1)
			}
			panic(r)
		}
	}()
	dir := filepath.Join(*src, "internal", "plans", "objchange")
	origin{
		files: map[string]string{
			"TestProposedNew":            filepath.Join(dir, "objchange_test.go"),
			"TestAssertPlanValid":        filepath.Join(dir, "plan_valid_test.go"),
			"TestAssertObjectCompatible": filepath.Join(dir, "compatible_test.go"),
		},
		prefix: "terraform",
		from:   fmt.Sprintf("Terraform commit %s (objchange as in v1.16.0-rc2), internal/plans/objchange/", *commit),
		about:  "Every case of Terraform's own test table.",
	}.generate(*outDir)
	here := filepath.Join("vectors", "gen", "terraform", "ctywire_cases.go")
	origin{
		files: map[string]string{
			"TestProposedNew":            here,
			"TestAssertPlanValid":        here,
			"TestAssertObjectCompatible": here,
		},
		prefix: "ctywire",
		from:   fmt.Sprintf("this project's cases, expectations worked out by hand from Terraform commit %s: vectors/gen/terraform/", *commit),
		about:  "This project's cases, beyond Terraform's tables.",
	}.generate(*outDir)
	renderCases(*src, *commit, *outDir)
}
