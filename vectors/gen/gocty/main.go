// Command gocty runs Debian's go-cty 1.12.1 (and hcl/v2 typeexpr) over probe requests,
// for cross-checking the ctywire vectors. It is a development tool: the Rust tests never
// need Go.
//
// Build and run in GOPATH mode (Debian packages golang-go, golang-github-zclconf-go-cty-dev,
// golang-github-hashicorp-hcl-v2-dev):
//
//	GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS=-mod=mod go run main.go < requests.jsonl
//
// (crosscheck.py does this.) Each input line is a JSON object {"id", "op", ...}; each
// output line is a JSON object with the same id and what go-cty did:
//
//	op "msgpack":  {"type": type JSON text, "hex": input}   decode with msgpack.Unmarshal
//	op "json":     {"type": type JSON text, "text": input}  decode with json.Unmarshal
//	    -> {"msgpack": hex, "json": text | "json_error": {"message","path"}} on success;
//	       {"error": text} when decoding fails; {"encode_error": text} when msgpack re-encoding fails
//	op "typejson": {"text"}  -> {"type_json": re-marshalled text} or {"error"}
//	op "typeexpr": {"text"}  -> {"type_json"} (hcl typeexpr.TypeConstraint) or {"error"}
//	op "implied_msgpack": {"hex"}, op "implied_json": {"text"} -> {"type_json"} or {"error"}
//
// A panic inside go-cty is reported as {"panic": message}.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"
)

type request struct {
	ID   string `json:"id"`
	Op   string `json:"op"`
	Type string `json:"type"`
	Hex  string `json:"hex"`
	Text string `json:"text"`
}

type pathError struct {
	Message string `json:"message"`
	Path    string `json:"path"`
}

type response struct {
	ID        string     `json:"id"`
	Msgpack   *string    `json:"msgpack,omitempty"`
	JSON      *string    `json:"json,omitempty"`
	JSONError *pathError `json:"json_error,omitempty"`
	TypeJSON  *string    `json:"type_json,omitempty"`
	Error     *string    `json:"error,omitempty"`
	EncodeErr *string    `json:"encode_error,omitempty"`
	Panic     *string    `json:"panic,omitempty"`
}

func str(s string) *string { return &s }

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
				q, _ := json.Marshal(k.AsString())
				b.WriteString("[" + string(q) + "]")
			case k.Type() == cty.Number:
				b.WriteString("[" + k.AsBigFloat().Text('g', -1) + "]")
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}

func errText(err error) string {
	if pe, ok := err.(cty.PathError); ok {
		return fmt.Sprintf("%s: %s", formatPath(pe.Path), pe.Error())
	}
	return err.Error()
}

func encodeBoth(resp *response, v cty.Value, ty cty.Type) {
	if b, err := msgpack.Marshal(v, ty); err != nil {
		resp.EncodeErr = str("msgpack encode: " + errText(err))
	} else {
		resp.Msgpack = str(hex.EncodeToString(b))
	}
	if b, err := ctyjson.Marshal(v, ty); err != nil {
		pe := &pathError{Message: err.Error()}
		if p, ok := err.(cty.PathError); ok {
			pe.Path = formatPath(p.Path)
		}
		resp.JSONError = pe
	} else {
		resp.JSON = str(string(b))
	}
}

func typeConstraint(text string) (cty.Type, error) {
	expr, diags := hclsyntax.ParseExpression([]byte(text), "type", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilType, diags
	}
	ty, _, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if diags.HasErrors() {
		return cty.NilType, diags
	}
	return ty, nil
}

func handle(req request) (resp response) {
	resp.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			resp = response{ID: req.ID, Panic: str(fmt.Sprint(r))}
		}
	}()
	switch req.Op {
	case "msgpack", "json":
		var ty cty.Type
		if err := ty.UnmarshalJSON([]byte(req.Type)); err != nil {
			resp.Error = str("type: " + err.Error())
			return
		}
		var v cty.Value
		var err error
		if req.Op == "msgpack" {
			b, herr := hex.DecodeString(req.Hex)
			if herr != nil {
				resp.Error = str("bad hex")
				return
			}
			v, err = msgpack.Unmarshal(b, ty)
		} else {
			v, err = ctyjson.Unmarshal([]byte(req.Text), ty)
		}
		if err != nil {
			resp.Error = str(errText(err))
			return
		}
		encodeBoth(&resp, v, ty)
	case "typejson":
		var ty cty.Type
		if err := ty.UnmarshalJSON([]byte(req.Text)); err != nil {
			resp.Error = str(err.Error())
			return
		}
		b, err := ty.MarshalJSON()
		if err != nil {
			resp.Error = str(err.Error())
			return
		}
		resp.TypeJSON = str(string(b))
	case "typeexpr":
		ty, err := typeConstraint(req.Text)
		if err != nil {
			resp.Error = str(err.Error())
			return
		}
		b, err := ty.MarshalJSON()
		if err != nil {
			resp.Error = str(err.Error())
			return
		}
		resp.TypeJSON = str(string(b))
	case "implied_msgpack", "implied_json":
		var ty cty.Type
		var err error
		if req.Op == "implied_msgpack" {
			b, herr := hex.DecodeString(req.Hex)
			if herr != nil {
				resp.Error = str("bad hex")
				return
			}
			ty, err = msgpack.ImpliedType(b)
		} else {
			ty, err = ctyjson.ImpliedType([]byte(req.Text))
		}
		if err != nil {
			resp.Error = str(err.Error())
			return
		}
		b, err := ty.MarshalJSON()
		if err != nil {
			resp.Error = str(err.Error())
			return
		}
		resp.TypeJSON = str(string(b))
	default:
		resp.Error = str("unknown op " + req.Op)
	}
	return
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(2)
		}
		resp := handle(req)
		if err := enc.Encode(resp); err != nil {
			fmt.Fprintln(os.Stderr, "encode:", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "read:", err)
		os.Exit(2)
	}
}
