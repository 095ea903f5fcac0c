console.log("rag");
