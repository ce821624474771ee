// Command gocty-convert is go-cty's side of the whole-process comparison with
// `ctywire convert --from msgpack --to msgpack` (benches/README.md): it reads a type
// JSON file and a MessagePack payload file, decodes the payload with the type
// (msgpack.Unmarshal), encodes it again (msgpack.Marshal) and writes the bytes to
// standard output, as the ctywire command does. A development tool: no test needs Go.
//
// Build in GOPATH mode against Debian's go-cty 1.12.1 (golang-github-zclconf-go-cty-dev):
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o target/gocty-convert ./benches/gocty-convert
//	target/gocty-convert instances.type instances.msgpack > out.msgpack
package main

import (
	"fmt"
	"os"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/msgpack"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gocty-convert TYPE_JSON_FILE MSGPACK_FILE")
		os.Exit(2)
	}
	typeJSON, err := os.ReadFile(os.Args[1])
	check(err)
	var ty cty.Type
	check(ty.UnmarshalJSON(typeJSON))
	payload, err := os.ReadFile(os.Args[2])
	check(err)
	value, err := msgpack.Unmarshal(payload, ty)
	check(err)
	out, err := msgpack.Marshal(value, ty)
	check(err)
	_, err = os.Stdout.Write(out)
	check(err)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
