package web_test

import (
	"fmt"
	"io"
	"net/http/httptest"

	"github.com/chesspuzzles/chesspuzzles/web"
)

func Example() {
	srv := httptest.NewServer(web.New(web.Options{}).Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/api/queens/count?n=8")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(string(body))
	// Output: {"n":8,"total":"92","unique":"12"}
}
