	needle		tabs	
no match here 12
999 needle