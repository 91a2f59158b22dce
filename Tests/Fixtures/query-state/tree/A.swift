    // needle:  two   spaces	and a tab
needle
needle
  needle x
needle    x
let path = "C:\\needle\\dir"
needle 123 and 456
